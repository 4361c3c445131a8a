import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { curpCheckDigit } from "../../app/registration/curp";
import { expectNoAxeViolations } from "./support/axe";
import { payWithCard, TEST_CARDS, TOPUP_RECEIPT_URL } from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";
import { askForCode, smsCode, spaced, typeCode } from "./support/lines";

// Issue 27, "Suspension" (decision 0100): a line without a registered holder is "Suspendida: sin
// registro" — shown on /saldo and the line's page with what it still reaches and the way to
// register; a top-up to it warns before payment and is applied all the same; registering it at
// /registro-de-linea lifts the suspension at once.

/** A line of the BSS simulator's test range 99 0003 NNNN: suspended for want of a registration. */
function unregisteredLine(): string {
  return `990003${String(Math.floor(Math.random() * 1e4)).padStart(4, "0")}`;
}

const two = (value: number) => String(value).padStart(2, "0");

/**
 * María López Díaz, with a date of birth of her own in each test (so that no run comes near the
 * 10 lines one CURP may hold): LODM… matches her name.
 */
function maria(): { name: string; curp: string } {
  const random = (below: number) => Math.floor(Math.random() * below);
  const first17 = `LODM${two(60 + random(40))}${two(1 + random(12))}${two(1 + random(28))}MDFPZR0`;
  return { name: "María López Díaz", curp: `${first17}${curpCheckDigit(first17)}` };
}

const EMERGENCY = "Solo puedes llamar a emergencias (911, 074, 079, 088, 089) y a tu operador.";

/** /saldo in this browser: the number, the code sent to it, its figures. */
async function showBalance(page: Page, request: APIRequestContext, number: string) {
  await page.goto("/saldo");
  await askForCode(page, spaced(number));
  await typeCode(page, await smsCode(request, number), "Ver mi saldo");
  await expect(page.getByRole("heading", { name: `Línea ${spaced(number)}` })).toBeVisible();
}

test("/saldo shows a line without a registration suspended, and registering it lifts the suspension at once", async ({
  page,
  request,
}) => {
  const number = unregisteredLine();
  await showBalance(page, request, number);
  await expect(page.getByTestId("line-status")).toHaveText("Suspendida: sin registro");
  const notice = page.getByTestId("line-unregistered");
  await expect(notice).toContainText("Tu línea está suspendida porque no tiene registro");
  await expect(notice).toContainText(EMERGENCY);
  // Not "runs out, top it up": a top-up alone does not bring it back.
  await expect(page.getByTestId("running-out")).toHaveCount(0);
  await expectNoAxeViolations(page);

  await notice.getByRole("link", { name: "Registrar mi línea" }).click();
  await expect(page).toHaveURL("/registro-de-linea");
  await page.getByLabel("Número de la línea (10 dígitos)").fill(spaced(number));
  await page.getByRole("button", { name: "Enviar código por SMS" }).click();
  await typeCode(page, await smsCode(request, number, 1), "Comprobar el número");
  const holder = maria();
  await page.getByLabel("Nombre completo (como aparece en la identificación)").fill(holder.name);
  await page.getByLabel("CURP", { exact: true }).fill(holder.curp);
  await page.getByText("Credencial para votar (INE)").click();
  await page.getByLabel("Número de la identificación").fill("123456789");
  await page.getByLabel("Foto de la identificación").setInputFiles({
    name: "ine.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]),
  });
  await page.getByLabel("Selfie", { exact: true }).setInputFiles({
    name: "selfie.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 2]),
  });
  await page.getByRole("button", { name: "Registrar la línea" }).click();
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/);

  // The number is still shown in this browser (15 minutes): active, no notice.
  await page.goto("/saldo");
  await expect(page.getByTestId("line-status")).toHaveText("Activa");
  await expect(page.getByTestId("line-unregistered")).toHaveCount(0);
});

test("a top-up to a line without a registration warns before payment, and is applied all the same", async ({
  page,
}) => {
  const number = unregisteredLine();
  await page.goto("/recarga");
  await page.getByLabel("Número de celular (10 dígitos)").fill(number);
  await page.getByLabel("Vuelve a escribir el número").fill(number);
  await page.getByRole("radio", { name: /^\$200(?![\d.,])/ }).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();

  // Before any payment: the form again, with the warning and the way to register.
  await expect(page).toHaveURL("/recarga");
  const warning = page.getByTestId("topup-unregistered");
  await expect(warning).toContainText(
    `La línea ${number.slice(0, 2)} •••• ${number.slice(6)} está suspendida: no tiene registro`,
  );
  await expect(warning).toContainText("el servicio sigue suspendido hasta el registro");
  await expect(warning.getByRole("link", { name: "Registrar la línea" })).toHaveAttribute(
    "href",
    "/registro-de-linea",
  );
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(number);
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("topup-application-state")).toHaveText("Aplicada a tu línea", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("topup-line-data")).toContainText("10 GB");
  await expect(page.getByTestId("topup-line-unregistered")).toContainText(
    "Tu línea sigue suspendida porque no tiene registro",
  );
});

test("a line without a registration added to an account: its page says it is suspended and how to register it", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, "sin-registro");
  const number = unregisteredLine();
  await signInTo(page, customer, "/my-account/lineas");
  await askForCode(page, spaced(number));
  await typeCode(page, await smsCode(request, number), "Agregar la línea");
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);
  await expect(page.getByTestId("line-status")).toHaveText("Suspendida: sin registro");
  await expect(page.getByTestId("line-unregistered")).toContainText(EMERGENCY);
  await expect(
    page.getByTestId("line-unregistered").getByRole("link", { name: "Registrar mi línea" }),
  ).toHaveAttribute("href", "/registro-de-linea");
  await expectNoAxeViolations(page);

  await page.goto("/my-account/lineas");
  await expect(page.getByTestId("line-status")).toHaveText("Suspendida: sin registro");
});
