import { expect, test, type Page } from "@playwright/test";
import { clabeControlDigit } from "../../app/payments/clabe";
import { expectNoAxeViolations } from "./support/axe";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  payWithCard,
  simulateVoucher,
  submitCheckout,
  TEST_CARDS,
  uniqueEmail,
} from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";

// Paying later, the Mexican way: a cash voucher for a convenience store, or a SPEI transfer.
// Every journey runs with JavaScript and without it.

async function checkoutWith(page: Page, method: "cash" | "spei", plan = "Conecta 200") {
  await cartWith(page, plan);
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail(`pago-${method}`));
  await choosePaymentMethod(page, method);
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
}

test("a customer pays in cash at a store: a printable voucher with a barcode, then the order is paid", async ({
  page,
}) => {
  await checkoutWith(page, "cash");
  await expect(page.getByTestId("order-status")).toHaveText("Pendiente de pago");
  // Placed, the order holds its plans: the cart is empty (no badge), and the next order is new.
  await expect(page.getByTestId("cart-count")).toBeHidden();
  await expect(page.getByTestId("cart-link")).toHaveAccessibleName(/0/);
  const voucher = page.getByTestId("payment-instructions-cash");
  await expect(voucher.getByRole("heading")).toHaveText("Tu ficha para pagar en efectivo");
  await expect(voucher.getByTestId("payment-amount")).toHaveText("$200.00 MXN");
  const reference = (await voucher.getByTestId("payment-reference").textContent()) ?? "";
  expect(reference).toMatch(/^\d{14}$/);
  // The barcode is drawn by the server: an image that shows without JavaScript.
  const barcode = voucher.getByTestId("payment-barcode");
  await expect(barcode).toBeVisible();
  await expect(barcode).toHaveAttribute("alt", `Código de barras de la referencia ${reference}`);
  expect(await barcode.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(
    100,
  );
  await expect(voucher.getByTestId("payment-expires")).toHaveText(/^\d{1,2} de [a-z]+ de \d{4}/);
  await expect(voucher).toContainText("OXXO");
  await expectNoAxeViolations(page);

  // The voucher is there again whenever the customer comes back to the order.
  await page.reload();
  await expect(page.getByTestId("payment-reference")).toHaveText(reference);

  await simulateVoucher(page, /^Simular pago en tienda$/);
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByTestId("payment-instructions-cash")).toHaveCount(0);
});

test("a customer pays by SPEI: a CLABE with its control digit, the reference and the beneficiary, then paid", async ({
  page,
}) => {
  await checkoutWith(page, "spei", "Conecta 300");
  await expect(page.getByTestId("cart-count")).toBeHidden();
  const transfer = page.getByTestId("payment-instructions-spei");
  // A transfer has "datos para tu transferencia"; a ficha is a cash voucher.
  await expect(page.getByTestId("payment-instructions-spei")).not.toContainText(/ficha/i);
  await expect(transfer.getByRole("heading")).toHaveText("Datos para tu transferencia SPEI");
  await expect(transfer.getByTestId("payment-amount")).toHaveText("$300.00 MXN");
  const clabe = ((await transfer.getByTestId("payment-clabe").textContent()) ?? "").replace(
    /\s/g,
    "",
  );
  expect(clabe).toMatch(/^\d{18}$/);
  expect(Number(clabe[17])).toBe(clabeControlDigit(clabe.slice(0, 17)));
  await expect(transfer.getByTestId("payment-reference")).toHaveText(/^\d{7}$/);
  await expect(transfer.getByTestId("payment-beneficiary")).toHaveText(
    "Conecta Móvil Telecomunicaciones, S.A. de C.V.",
  );
  await expect(transfer.getByTestId("payment-barcode")).toHaveCount(0);
  await expectNoAxeViolations(page);

  await simulateVoucher(page, /^Simular transferencia recibida$/);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
});

test("a voucher that expires unpaid cancels the order, and the same cart makes a new order", async ({
  page,
}) => {
  await checkoutWith(page, "cash", "Conecta 100");
  const folio = (await page.getByTestId("order-folio").textContent()) ?? "";
  await simulateVoucher(page, /^Simular vencimiento$/);
  await expect(page.getByTestId("order-status")).toHaveText("Cancelado");
  await expect(page.getByText(`cancelamos el pedido ${folio}`)).toBeVisible();
  await expect(page.getByTestId("payment-instructions-cash")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Continuar al pago/ })).toHaveCount(0);

  // Buying again: the order's plans go back in the cart, and the new submission is a new order.
  await page.getByRole("button", { name: "Hacer un pedido nuevo" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId("cart-total")).toHaveText("$100.00 MXN");
  await page.getByRole("link", { name: "Continuar al pago" }).click();
  await fillCheckout(page, uniqueEmail("otra-vez"));
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  expect(await page.getByTestId("order-folio").textContent()).not.toBe(folio);
});

test("a customer with a voucher decides to pay by card instead: the voucher closes, the order is paid once", async ({
  page,
}) => {
  await checkoutWith(page, "cash");
  const reference = (await page.getByTestId("payment-reference").textContent()) ?? "";
  await expect(page.getByRole("group", { name: "¿Prefieres pagar de otra forma?" })).toBeVisible();
  await choosePaymentMethod(page, "card");
  await page.getByRole("button", { name: /^Continuar al pago$/ }).click();
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByText("Pagado con Visa terminada en 4242")).toBeVisible();
  expect(await page.content()).not.toContain(reference);
});

test("a top-up paid in cash at a store: voucher on the receipt, then paid", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, "recarga-efectivo");
  await signInTo(page, customer, "/my-account/recarga");
  const line = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$150/ }).check();
  await choosePaymentMethod(page, "cash");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(/\/recarga\/[\w-]{22}$/);
  await expect(page.getByTestId("topup-status")).toHaveText("Pendiente de pago");
  const voucher = page.getByTestId("payment-instructions-cash");
  await expect(voucher.getByTestId("payment-amount")).toHaveText("$150.00 MXN");
  await expect(voucher.getByTestId("payment-reference")).toHaveText(/^\d{14}$/);
  await expectNoAxeViolations(page);

  await simulateVoucher(page, /^Simular pago en tienda$/);
  await expect(page).toHaveURL(/\/recarga\/[\w-]{22}$/);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
});
