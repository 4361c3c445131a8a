import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { authenticator } from "otplib";
import {
  accountReady,
  expectEmailed,
  expectFlash,
  formAlert,
  latestCode,
  NEW_PASSWORD,
  PASSWORD,
  signIn,
  uniqueEmail,
} from "./support/auth";
import { TOPUP_RECEIPT_URL } from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";
import { uniqueLineNumber } from "./support/lines";
import { serverWithMovableClock } from "./support/own-server";
import { chooseOtherLine, saveCardWhileToppingUp, savedCardRadio } from "./support/saved-cards";

/**
 * An intruder who copied a session cookie leaves with the password reset, or when the customer
 * signs out of every device (issue 47, decision 0134).
 */

/** Another browser (the intruder's, or the customer's phone), with JavaScript as the project. */
async function anotherBrowser(browser: Browser, testInfo: TestInfo, from?: Page) {
  return browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
    locale: "es-MX",
    storageState: from ? await from.context().storageState() : undefined,
  });
}

async function expectSignedOut(page: Page) {
  await page.goto("/my-account");
  await expect(page).toHaveURL(/\/auth\/sign-in/);
}

test("a copy of the session cookie taken before a password reset opens nothing after it", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const email = uniqueEmail("desalojo");
  await accountReady(page, request, email);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);

  // Someone copies the session cookie into their own browser: it opens the account.
  const intruder = await anotherBrowser(browser, testInfo, page);
  const intruderPage = await intruder.newPage();
  await intruderPage.goto("/my-account");
  await expect(intruderPage).toHaveURL(/\/my-account$/);

  // The customer resets the password from another browser.
  const phone = await anotherBrowser(browser, testInfo);
  const reset = await phone.newPage();
  await reset.goto("/auth/forgot-password");
  await reset.getByLabel("Correo electrónico").fill(email);
  await reset.getByRole("button", { name: "Enviar código" }).click();
  await expect(reset).toHaveURL(/\/auth\/confirm-reset-password$/);
  const code = await latestCode(request, email, "ForgotPassword");
  await reset.getByLabel("Código de verificación").fill(code);
  await reset.getByLabel("Nueva contraseña").fill(NEW_PASSWORD);
  await reset.getByLabel("Confirma la contraseña").fill(NEW_PASSWORD);
  await reset.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expect(reset).toHaveURL(/\/auth\/sign-in$/);
  await expectEmailed(request, email, "Cambiaste la contraseña de tu cuenta");

  // The copy stops at once, long before its access token would have expired; so does the
  // session it was copied from.
  await expectSignedOut(intruderPage);
  await expectSignedOut(page);
  // The new password opens a session the reset does not touch.
  await signIn(reset, email, NEW_PASSWORD);
  await expect(reset).toHaveURL(/\/my-account$/);
  await reset.goto("/my-account");
  await expect(reset).toHaveURL(/\/my-account$/);
  await intruder.close();
  await phone.close();
});

test("“Cerrar sesión en todos los dispositivos” signs out every browser, this one too", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const email = uniqueEmail("todas");
  await accountReady(page, request, email);
  const phone = await anotherBrowser(browser, testInfo);
  const phonePage = await phone.newPage();
  await signIn(phonePage, email);
  await expect(phonePage).toHaveURL(/\/my-account$/);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);
  // A copy of this browser's cookie, taken before.
  const copy = await anotherBrowser(browser, testInfo, page);
  const copyPage = await copy.newPage();

  await page.goto("/my-account/seguridad");
  await page.getByRole("button", { name: "Cerrar sesión en todos los dispositivos" }).click();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expectFlash(page, "Cerramos tu sesión en todos los dispositivos.");
  await expectEmailed(request, email, "Cerramos tu sesión en todos los dispositivos");

  await expectSignedOut(page);
  await expectSignedOut(phonePage);
  await expectSignedOut(copyPage);
  // Signing in again works as before.
  await signIn(phonePage, email);
  await expect(phonePage).toHaveURL(/\/my-account$/);
  await phone.close();
  await copy.close();
});

/** Past the 10 minutes a sensitive change allows since the customer last authenticated. */
const OLD_AUTHENTICATION_SECONDS = 11 * 60;

/** The password asked again, a wrong one refused, then back where the customer was. */
async function confirmIdentity(page: Page, backTo: RegExp, password = PASSWORD) {
  await expect(page).toHaveURL(/\/my-account\/confirmar-identidad\?redirectTo=/);
  await expectFlash(page, "Por tu seguridad, confirma que eres tú antes de continuar.");
  await page.getByLabel("Contraseña").fill("Otra-Clave-99");
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(formAlert(page)).toHaveText("Correo o contraseña incorrectos.");
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(backTo);
  await expectFlash(page, "Confirmamos que eres tú.");
}

test("changing or turning off the second factor from an old authentication asks for the password first", async ({
  browser,
}, testInfo) => {
  const own = await serverWithMovableClock(browser, testInfo);
  try {
    const { page, request } = own;
    const email = uniqueEmail("reauth-mfa");
    await accountReady(page, request, email);
    await signIn(page, email);
    await expect(page).toHaveURL(/\/my-account$/);
    // Just signed in: the authenticator app is set up without a question.
    await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
    await expect(page).toHaveURL(/\/auth\/setup-totp$/);
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    const code = authenticator.clone({ epoch: own.server.now() }).generate(secret);
    await page.getByLabel("Código de tu app de autenticación").fill(code);
    await page.getByRole("button", { name: "Verificar y activar" }).click();
    await expect(page).toHaveURL(/\/my-account$/);
    await expect(page.getByTestId("account-mfa-status")).toContainText("App de autenticación");

    // The session is the same, its authentication eleven minutes old (or a copy of its cookie).
    await own.server.moveClock(OLD_AUTHENTICATION_SECONDS);
    await page.goto("/my-account");
    await page.getByLabel("Ninguno (desactivar la verificación en dos pasos)").check();
    await page.getByRole("button", { name: "Guardar preferencia" }).click();
    await confirmIdentity(page, /\/my-account$/);
    // Nothing was changed without the password.
    await expect(page.getByTestId("account-mfa-status")).toContainText("App de autenticación");
    await page.getByLabel("Ninguno (desactivar la verificación en dos pasos)").check();
    await page.getByRole("button", { name: "Guardar preferencia" }).click();
    await expectFlash(page, "Desactivaste la verificación en dos pasos.");
    await expectEmailed(request, email, "Cambió la verificación en dos pasos de tu cuenta");
    await expectEmailed(request, email, "Se desactivó la verificación en dos pasos de tu cuenta");

    // Setting up another app (which replaces the second factor) asks again once it is old.
    await own.server.moveClock(OLD_AUTHENTICATION_SECONDS);
    await page.goto("/my-account");
    await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
    await confirmIdentity(page, /\/my-account$/);
    await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
    await expect(page).toHaveURL(/\/auth\/setup-totp$/);
  } finally {
    await own.close();
  }
});

test("adding a passkey from an old authentication asks for the password first", async ({
  browser,
}, testInfo) => {
  test.skip(!testInfo.project.use.javaScriptEnabled, "a passkey's ceremony needs JavaScript");
  const own = await serverWithMovableClock(browser, testInfo);
  try {
    const { page, request } = own;
    const email = uniqueEmail("reauth-llave");
    await accountReady(page, request, email);
    await signIn(page, email);
    await expect(page).toHaveURL(/\/my-account$/);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await own.server.moveClock(OLD_AUTHENTICATION_SECONDS);
    await page.goto("/my-account/seguridad");
    await page.getByRole("button", { name: "Crear una llave de acceso" }).click();
    await confirmIdentity(page, /\/my-account\/seguridad$/);
    await expect(page.getByTestId("passkeys-empty")).toBeVisible();
    await page.getByRole("button", { name: "Crear una llave de acceso" }).click();
    await expectFlash(page, "Creaste tu llave de acceso");
    await expectEmailed(request, email, "Se agregó una llave de acceso a tu cuenta");
  } finally {
    await own.close();
  }
});

test("a saved card paying for a number that is not one of the account's lines asks for the password first", async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const own = await serverWithMovableClock(browser, testInfo);
  try {
    const { page, request } = own;
    const customer = await createCustomer(request, "reauth-tarjeta");
    await signInTo(page, customer, "/my-account/recarga");
    await saveCardWhileToppingUp(page, uniqueLineNumber());

    await own.server.moveClock(OLD_AUTHENTICATION_SECONDS);
    const stranger = uniqueLineNumber();
    const topUpStranger = async () => {
      await chooseOtherLine(page);
      await page.getByLabel("Número de celular (10 dígitos)").fill(stranger);
      await page.getByLabel("Vuelve a escribir el número").fill(stranger);
      await page.getByRole("radio", { name: /^\$100(?![\d.,])/ }).check();
      await savedCardRadio(page).check();
      await page.getByRole("button", { name: "Continuar al pago" }).click();
    };
    await page.goto("/my-account/recarga");
    await topUpStranger();
    // Nothing charged: the password first, then back to the form with the number filled in.
    await confirmIdentity(
      page,
      new RegExp(`/my-account/recarga\\?numero=${stranger}$`),
      customer.password,
    );
    await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(stranger);
    await topUpStranger();
    await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
    await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  } finally {
    await own.close();
  }
});
