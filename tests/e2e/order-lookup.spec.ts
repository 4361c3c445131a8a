import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import {
  cartWith,
  choosePaymentMethod,
  emailedOrderLink,
  emailedOrderLinks,
  fillCheckout,
  submitCheckout,
  uniqueEmail,
  validCheckout,
} from "./support/commerce";

const SENT =
  "Si el folio y el correo son de un mismo pedido, te enviamos a ese correo un enlace para abrirlo.";

async function lookUp(page: Page, folio: string, email: string) {
  await page.getByLabel("Folio del pedido").fill(folio);
  await page.getByLabel("Correo electrónico del pedido").fill(email);
  await page.getByRole("button", { name: "Enviarme el enlace" }).click();
  await expect(page.getByTestId("lookup-sent")).toContainText(SENT);
}

test("an order is opened from a browser with no cookies only through a one-time link sent to its e-mail", async ({
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
  const confirmation = page.url();

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto("/");
    await other.getByRole("link", { name: "Consulta tu pedido con su folio" }).click();
    await expect(other).toHaveURL("/pedido");
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Consulta tu pedido");
    await expectNoAxeViolations(other);

    // A wrong e-mail, a wrong folio and the right pair (as customers write it) get one answer,
    // and the page shows nothing of any order.
    const stranger = uniqueEmail("otra");
    await lookUp(other, folio, stranger);
    const [prefix, year, number] = folio.split("-");
    const otherFolio = `${prefix}-${year}-${String((Number(number) + 500) % 1e6).padStart(6, "0")}`;
    await lookUp(other, otherFolio, email);
    await lookUp(other, folio.toLowerCase(), email.toUpperCase());
    for (const secret of [validCheckout.full_name, validCheckout.street, "$100.00"]) {
      await expect(other.getByText(secret)).toHaveCount(0);
    }
    await expectNoAxeViolations(other);
    // Nor did looking it up open the order in this browser.
    expect((await other.request.get(confirmation, { maxRedirects: 0 })).status()).toBe(404);

    // The link went to the order's address only, once.
    const link = await emailedOrderLink(other.request, email, folio);
    expect(
      await emailedOrderLinks(other.request, email, `Tu enlace para ver el pedido ${folio}`),
    ).toHaveLength(1);
    expect(
      await emailedOrderLinks(other.request, stranger, `Tu enlace para ver el pedido ${folio}`),
    ).toHaveLength(0);

    // Following it opens nothing yet (mail scanners follow links); its button opens the order.
    await other.goto(link);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText(`Abre tu pedido ${folio}`);
    await expectNoAxeViolations(other);
    await other.getByRole("button", { name: "Abrir mi pedido" }).click();
    await expect(other.getByTestId("order-folio")).toHaveText(folio);
    await expect(other.getByTestId("payment-instructions-cash")).toBeVisible();
    // This browser remembers it.
    await other.goto(confirmation);
    await expect(other.getByTestId("order-folio")).toHaveText(folio);

    // Used once: a second use, from here or anywhere, opens nothing.
    const again = await other.goto(link);
    expect(again?.status()).toBe(410);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Este enlace ya no sirve");
    const third = await browser.newContext();
    try {
      const late = await third.newPage();
      await late.goto(link);
      await expect(late.getByRole("heading", { level: 1 })).toHaveText("Este enlace ya no sirve");
      const replay = await late.request.post(link, { form: { clave: link.split("=")[1]! } });
      expect(replay.status()).toBe(410);
      expect((await late.request.get(confirmation, { maxRedirects: 0 })).status()).toBe(404);
    } finally {
      await third.close();
    }
  } finally {
    await elsewhere.close();
  }
});

test("a malformed folio is refused next to the field, in Spanish", async ({ page }) => {
  await page.goto("/pedido?folio=PED-2026-000001");
  await expect(page.getByLabel("Folio del pedido")).toHaveValue("PED-2026-000001");
  await page.getByLabel("Folio del pedido").fill("12345");
  await page.getByLabel("Correo electrónico del pedido").fill("ana@example.com");
  await page.getByRole("button", { name: "Enviarme el enlace" }).click();
  await expect(page.getByText("El folio tiene la forma PED-2026-000123.")).toBeVisible();
});

test("a link that is not one, or is tampered with, opens nothing and says so", async ({ page }) => {
  for (const address of ["/pedido/abrir", `/pedido/abrir?clave=${"A".repeat(43)}`]) {
    const response = await page.goto(address);
    expect(response?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Este enlace ya no sirve");
    await expect(page.getByRole("link", { name: "Pedir otro enlace" })).toHaveAttribute(
      "href",
      "/pedido",
    );
  }
});
