import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { expectFlash } from "./support/auth";
import {
  cartWith,
  fillCheckout,
  ORDER_CONFIRMATION_URL,
  payWithCard,
  submitCheckout,
  TOPUP_RECEIPT_URL,
} from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";
import { uniqueLineNumber } from "./support/lines";
import {
  chooseOtherLine,
  SAVED_CARD,
  saveCardWhileToppingUp,
  savedCardRadio,
} from "./support/saved-cards";

// Issue 29, saved cards (decision 0119): saved at the card step of a top-up, with the sandbox's
// own page; listed and removed in the account; one form pays with one.

async function fillTopup(page: Page, line: string, amount = "$50") {
  await chooseOtherLine(page);
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: new RegExp(`^\\${amount}(?![\\d.,])`) }).check();
}

test("a customer saves a card while topping up, buys a plan with it in one form, and removes it", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const customer = await createCustomer(request, "tarjetas");
  await signInTo(page, customer, "/my-account/recarga");
  await saveCardWhileToppingUp(page, uniqueLineNumber());
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");

  await page.goto("/my-account");
  await page.getByRole("link", { name: "Mis tarjetas guardadas" }).click();
  await expect(page).toHaveURL("/my-account/tarjetas");
  const card = page.getByTestId("saved-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(SAVED_CARD);
  await expect(card).toContainText("Vence 12/30");
  // Only brand, last four and expiry: never the number.
  await expect(page.locator("body")).not.toContainText("4242 4242");
  await expectNoAxeViolations(page);

  // One form: the saved card chosen at checkout pays the order at once, without the card page.
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillCheckout(page, customer.email);
  await savedCardRadio(page).check();
  await submitCheckout(page);
  await expect(page).toHaveURL(ORDER_CONFIRMATION_URL);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByText(`Pagado con ${SAVED_CARD}`)).toBeVisible();

  await page.goto("/my-account/tarjetas");
  await page.getByRole("button", { name: `Quitar ${SAVED_CARD}` }).click();
  await expectFlash(page, `Quitamos tu ${SAVED_CARD}.`);
  await expect(page.getByTestId("saved-card")).toHaveCount(0);
  await expect(page.getByTestId("saved-cards-empty")).toBeVisible();
  // Gone from the forms too.
  await page.goto("/my-account/recarga");
  await expect(savedCardRadio(page)).toHaveCount(0);
});

test("a saved card pays a top-up in one form; one the bank wants authenticated goes to the payment page", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const customer = await createCustomer(request, "tarjetas-3ds");
  await signInTo(page, customer, "/my-account/recarga");
  await saveCardWhileToppingUp(page, uniqueLineNumber());

  await page.goto("/my-account/recarga");
  await fillTopup(page, uniqueLineNumber(), "$100");
  await savedCardRadio(page).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await expect(page.getByText(`Pagado con ${SAVED_CARD}`)).toBeVisible();

  // A card whose bank always asks for 3-D Secure: saved, then paid with at the page instead.
  await page.goto("/my-account/recarga");
  await saveCardWhileToppingUp(page, uniqueLineNumber(), "4000 0027 6000 3184");
  await page.goto("/my-account/recarga");
  await fillTopup(page, uniqueLineNumber());
  await page.getByRole("radio", { name: /^Visa terminada en 3184/ }).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await expectFlash(page, "Tu banco pide confirmar este pago.");
  await payWithCard(page, "4000 0027 6000 3184", { landsOn: TOPUP_RECEIPT_URL });
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
});

test("without an account no card is saved nor offered", async ({ page }) => {
  await page.goto("/recarga");
  await expect(page.getByLabel(/Guardar esta tarjeta/)).toHaveCount(0);
  await expect(page.getByTestId("payment-method-saved-card")).toHaveCount(0);
  await page.goto("/my-account/tarjetas");
  await expect(page).toHaveURL(/\/auth\/sign-in/);
});
