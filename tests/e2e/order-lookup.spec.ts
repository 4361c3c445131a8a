import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  submitCheckout,
  uniqueEmail,
} from "./support/commerce";

test("an order is found again from a browser with no cookies by its folio and e-mail, and only by both", async ({
  page,
  browser,
}) => {
  // A cash order: pending, its voucher waiting.
  const email = uniqueEmail("consulta");
  await cartWith(page, "Conecta 100");
  await page.goto("/checkout");
  await fillCheckout(page, email);
  await choosePaymentMethod(page, "cash");
  await submitCheckout(page);
  await expect(page.getByTestId("payment-instructions-cash")).toBeVisible();
  const folio = (await page.getByTestId("order-folio").textContent())!;
  const reference = (await page.getByTestId("payment-reference").first().textContent())!;

  // Without an SMTP server (development), the e-mails are captured and shown at /dev/outbox.
  await expect
    .poll(
      async () =>
        await (await page.request.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).text(),
      { timeout: 20_000 },
    )
    .toContain(`Recibimos tu pedido ${folio}`);

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto("/");
    await other.getByRole("link", { name: "Consulta tu pedido con su folio" }).click();
    await expect(other).toHaveURL("/pedido");
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Consulta tu pedido");
    await expectNoAxeViolations(other);

    const lookUp = async (typedFolio: string, typedEmail: string) => {
      await other.getByLabel("Folio del pedido").fill(typedFolio);
      await other.getByLabel("Correo electrónico del pedido").fill(typedEmail);
      await other.getByRole("button", { name: "Consultar" }).click();
    };
    const notFound =
      "No encontramos un pedido con ese folio y ese correo. Revisa que ambos estén bien escritos.";
    // A wrong e-mail and a wrong folio get the same answer.
    await lookUp(folio, uniqueEmail("otra"));
    await expect(other.getByText(notFound)).toBeVisible();
    await expect(other.getByTestId("lookup-result")).toHaveCount(0);
    const [prefix, year, number] = folio.split("-");
    const otherFolio = `${prefix}-${year}-${String((Number(number) + 500) % 1e6).padStart(6, "0")}`;
    await lookUp(otherFolio, email);
    await expect(other.getByText(notFound)).toBeVisible();

    // Written as customers write it: lower case, the e-mail in capitals.
    await lookUp(folio.toLowerCase(), email.toUpperCase());
    const result = other.getByTestId("lookup-result");
    await expect(result).toBeVisible();
    await expect(other.getByTestId("lookup-status")).toHaveText("Pendiente de pago");
    await expect(other.getByTestId("lookup-sim-type")).toHaveText("SIM física");
    await expect(other.getByTestId("lookup-total")).toHaveText("$100.00 MXN");
    await expect(result.getByTestId("payment-reference").first()).toHaveText(reference);
    await expectNoAxeViolations(other);
    // The order's own page opens in this browser now, to pay or print the voucher.
    await other.getByRole("link", { name: "Ver tu pedido completo" }).click();
    await expect(other.getByTestId("order-folio")).toHaveText(folio);
  } finally {
    await elsewhere.close();
  }
});

test("a malformed folio is refused next to the field, in Spanish", async ({ page }) => {
  await page.goto("/pedido?folio=PED-2026-000001");
  await expect(page.getByLabel("Folio del pedido")).toHaveValue("PED-2026-000001");
  await page.getByLabel("Folio del pedido").fill("12345");
  await page.getByLabel("Correo electrónico del pedido").fill("ana@example.com");
  await page.getByRole("button", { name: "Consultar" }).click();
  await expect(page.getByText("El folio tiene la forma PED-2026-000123.")).toBeVisible();
});
