import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import {
  choosePaymentMethod,
  payWithCard,
  simulateVoucher,
  TEST_CARDS,
  TOPUP_RECEIPT_URL,
} from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";

/** Every receipt lives at /recarga/<128-bit id>: the address is the key. */

function uniqueLine() {
  return `56${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

async function topUp(page: Page, line: string, amount: string, email?: string) {
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: new RegExp(`^\\${amount}(?![\\d.,])`) }).check();
  if (email !== undefined)
    await page.getByLabel("Correo para tu comprobante (opcional)").fill(email);
}

test("anyone tops up a line from the navigation, without an account, and keeps the receipt's address", async ({
  page,
  browser,
}) => {
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Navegación principal" })
    .getByRole("link", { name: "Recarga", exact: true })
    .click();
  await expect(page).toHaveURL("/recarga");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recarga tu línea");
  await expect(page.getByTestId("topup-sign-in-hint")).toBeVisible();
  await expectNoAxeViolations(page);

  const line = uniqueLine();
  await topUp(page, line, "$200", "ana.sofia@example.com");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });

  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await expect(page.getByTestId("topup-folio")).toHaveText(/^REC-\d{4}-\d{6}$/);
  await expect(page.getByTestId("topup-line")).toHaveText(
    `${line.slice(0, 2)} •••• ${line.slice(6)}`,
  );
  // What $200 buys is what the $200 plan gives, and the receipt says until when.
  await expect(page.getByText("10 GB de datos")).toBeVisible();
  await expect(page.getByTestId("topup-valid-until")).toContainText(
    "Vigencia de 30 días: hasta el",
  );
  await expect(page.getByRole("link", { name: "Ir a Mi cuenta" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The address alone opens the receipt, in a browser with no cookies at all.
  const address = page.url();
  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    expect((await other.goto(address))?.status()).toBe(200);
    await expect(other.getByTestId("topup-status")).toHaveText("Pagada");
    const unknown = await other.goto("/recarga/AAAAAAAAAAAAAAAAAAAAAA");
    expect(unknown?.status()).toBe(404);
  } finally {
    await elsewhere.close();
  }
});

test("a top-up without an account paid in cash: voucher on the receipt, then paid", async ({
  page,
}) => {
  await page.goto("/recarga");
  await topUp(page, uniqueLine(), "$50");
  await choosePaymentMethod(page, "cash");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pendiente de pago");
  const voucher = page.getByTestId("payment-instructions-cash");
  await expect(voucher.getByTestId("payment-amount")).toHaveText("$50.00 MXN");
  await expect(voucher.getByTestId("payment-reference")).toHaveText(/^\d{14}$/);
  await simulateVoucher(page, /^Simular pago en tienda$/);
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
});

test("a wrong e-mail or a mismatched number is refused next to the field, with the values kept", async ({
  page,
}) => {
  await page.goto("/recarga");
  const line = uniqueLine();
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  // The last digit changed: a mismatch whatever the number drawn.
  const mistyped = `${line.slice(0, 9)}${(Number(line[9]) + 1) % 10}`;
  await page.getByLabel("Vuelve a escribir el número").fill(mistyped);
  await page.getByRole("radio", { name: /^\$100/ }).check();
  await page.getByLabel("Correo para tu comprobante (opcional)").fill("ana@");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL("/recarga");
  await expect(page.getByText("Los números no coinciden. Revisa ambos.")).toBeVisible();
  await expect(page.getByText("Escribe un correo válido")).toBeVisible();
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(line);
});

test("a top-up form this browser no longer recognises is refused once, then sent again it goes to the payment", async ({
  page,
  context,
}) => {
  await page.goto("/recarga");
  const line = uniqueLine();
  await topUp(page, line, "$100");
  // The browser loses what it held of the form (its cookie expired, or was cleared).
  await context.clearCookies();
  await choosePaymentMethod(page, "cash");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page.getByRole("alert").first()).toContainText(
    "Este formulario ya no es válido en este navegador.",
  );
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(line);
  // The answer carried a key of this browser's own: the same form sent again is taken.
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pendiente de pago");
});

test("a signed-in customer's top-up on /recarga joins their history", async ({ page, request }) => {
  const customer = await createCustomer(request, "recarga-publica");
  await signInTo(page, customer, "/recarga");
  await expect(page.getByTestId("topup-sign-in-hint")).toHaveCount(0);
  await expect(page.getByLabel("Correo para tu comprobante (opcional)")).toHaveCount(0);
  await topUp(page, uniqueLine(), "$30");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  const folio = (await page.getByTestId("topup-folio").textContent())!;
  await page.getByRole("link", { name: "Ir a Mi cuenta" }).click();
  await expect(page.getByTestId("account-topups")).toContainText(folio);
});

test("one number topped up too often in an hour gets a Spanish 429, the form kept", async ({
  page,
}) => {
  const line = uniqueLine();
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.goto("/recarga");
    await topUp(page, line, "$20");
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  }
  await page.goto("/recarga");
  await topUp(page, line, "$20");
  const answer = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.url().includes("/recarga"),
  );
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  expect((await answer).status()).toBe(429);
  await expect(page.getByText("Por seguridad limitamos las recargas seguidas")).toBeVisible();
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(line);
});
