import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import {
  accountReady,
  expectFlash,
  latestCode,
  NEW_PASSWORD,
  signIn,
  uniqueEmail,
} from "./support/auth";

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

  await expectSignedOut(page);
  await expectSignedOut(phonePage);
  await expectSignedOut(copyPage);
  // Signing in again works as before.
  await signIn(phonePage, email);
  await expect(phonePage).toHaveURL(/\/my-account$/);
  await phone.close();
  await copy.close();
});
