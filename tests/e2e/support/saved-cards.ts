import { expect, type Page } from "@playwright/test";
import { payWithCard, TEST_CARDS, TOPUP_RECEIPT_URL } from "./commerce";

/** How the store names the sandbox's approved test card once saved (decision 0119). */
export const SAVED_CARD = "Visa terminada en 4242";

/** The radio that pays with a saved card (the approved test card unless said). */
export function savedCardRadio(page: Page, name = SAVED_CARD) {
  return page.getByRole("radio", { name: new RegExp(`^${name}`) });
}

/** Once the account has topped up a line, the form offers it first: "Otro número" to type one. */
export async function chooseOtherLine(page: Page) {
  const other = page.getByRole("radio", { name: /^Otro número/ });
  if ((await other.count()) > 0) await other.check();
}

/**
 * On the signed-in top-up form: $50 to `line` by card with "Guardar esta tarjeta" ticked, paid
 * on the sandbox's page with `card`, back on the receipt.
 */
export async function saveCardWhileToppingUp(
  page: Page,
  line: string,
  card: string = TEST_CARDS.approved,
) {
  await expect(page).toHaveURL("/my-account/recarga");
  await chooseOtherLine(page);
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$50(?![\d.,])/ }).check();
  await page.getByRole("radio", { name: /^(Otra tarjeta|Tarjeta) de crédito o débito/ }).check();
  await page.getByLabel(/Guardar esta tarjeta en mi cuenta/).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page.getByTestId("sandbox-saves-card")).toBeVisible();
  await payWithCard(page, card, { landsOn: TOPUP_RECEIPT_URL });
}
