import { expect, test, type Browser, type Page } from "@playwright/test";
import { authenticator } from "otplib";
import type { ServerProcess } from "../support/server-process";
import {
  accountReady,
  expectEmailed,
  expectFlash,
  PASSWORD,
  signIn,
  signOut,
  uniqueEmail,
} from "./support/auth";
import { serverWithMovableClock } from "./support/own-server";

/**
 * Passkeys and remembered devices (issue 28, decisions 0122 and 0123), with Chromium's virtual
 * authenticator standing in for a phone's fingerprint.
 */

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Makes the page's WebAuthn calls name another site, as a passkey made elsewhere would. */
async function passkeysForAnotherSite(page: Page) {
  await page.addInitScript(() => {
    const credentials = navigator.credentials;
    const create = credentials.create.bind(credentials);
    const get = credentials.get.bind(credentials);
    credentials.create = (options?: CredentialCreationOptions) => {
      if (options?.publicKey) options.publicKey.rp.id = "otra-tienda.example";
      return create(options);
    };
    credentials.get = (options?: CredentialRequestOptions) => {
      if (options?.publicKey) options.publicKey.rpId = "otra-tienda.example";
      return get(options);
    };
  });
}

/**
 * An authenticator app's codes as the emulator takes them: each 30-second step once, and one step
 * ahead at most (a phone's clock a little fast). Hands out the next unused step of the server's
 * clock, moving that clock on when the one ahead is spent already.
 */
function authenticatorApp(secret: string, server: ServerProcess) {
  const STEP_MS = 30_000;
  let usedStep = -1;
  return async () => {
    for (;;) {
      const now = server.now();
      const current = Math.floor(now / STEP_MS);
      const next = Math.max(current, usedStep + 1);
      if (next <= current + 1) {
        usedStep = next;
        return authenticator.clone({ epoch: next * STEP_MS }).generate(secret);
      }
      await server.moveClock(((current + 1) * STEP_MS - now + 250) / 1000);
    }
  };
}

async function signInWithTotp(
  page: Page,
  email: string,
  code: () => Promise<string>,
  remember: boolean,
) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-in$/);
  await page.getByLabel("Código de verificación").fill(await code());
  if (remember) await page.getByLabel("Recordar este dispositivo").check();
  await page.getByRole("button", { name: "Confirmar" }).click();
  await expect(page).toHaveURL(/\/my-account$/);
}

/**
 * Signs in on the way to `path` and waits to land there: a page opened while the sign-in form is
 * still on its way would find the visitor signed out.
 */
async function signInTo(page: Page, email: string, path: string) {
  await page.goto(path);
  await signIn(page, email);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test.describe("passkeys", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the ceremony needs JavaScript");

  test("create a passkey, sign out, sign in with it; delete it and it is refused", async ({
    page,
    request,
  }) => {
    await virtualAuthenticator(page);
    const email = uniqueEmail("llave");
    await accountReady(page, request, email);
    await signInTo(page, email, "/my-account/seguridad");
    await expect(page.getByTestId("passkeys-empty")).toBeVisible();
    await page.getByRole("button", { name: "Crear una llave de acceso" }).click();
    await expectFlash(page, "Creaste tu llave de acceso");
    await expect(page.getByTestId("passkey")).toHaveCount(1);
    await expect(page.getByTestId("passkey-last-used")).toHaveText("Nunca");

    await signOut(page);
    await page.goto(`/auth/sign-in?redirectTo=${encodeURIComponent("/my-account/seguridad")}`);
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByRole("button", { name: "Iniciar sesión con llave de acceso" }).click();
    await expect(page).toHaveURL(/\/my-account\/seguridad$/);
    await expect(page.getByTestId("passkey-last-used")).not.toHaveText("Nunca");

    await page.getByRole("button", { name: /^Eliminar / }).click();
    await expectFlash(page, "Eliminaste la llave de acceso");
    await expect(page.getByTestId("passkeys-empty")).toBeVisible();
    await signOut(page);
    await page.goto("/auth/sign-in");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByRole("button", { name: "Iniciar sesión con llave de acceso" }).click();
    // The button answers as for any address (decision 0138): the device still offers the
    // deleted passkey, which is refused as another account's would be.
    await expect(page.getByTestId("passkey-error")).toHaveText(
      "Tu llave de acceso no fue aceptada para este correo: quizá es de otra cuenta o la eliminaste. Entra con tu contraseña.",
    );
    await expect(page).toHaveURL(/\/auth\/sign-in$/);
    // The password path still works from the same page.
    await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
    await expect(page).toHaveURL(/\/my-account$/);
  });

  test("a passkey for another site is refused with its Spanish message", async ({
    page,
    request,
  }) => {
    await virtualAuthenticator(page);
    await passkeysForAnotherSite(page);
    const email = uniqueEmail("llave-otra");
    await accountReady(page, request, email);
    await signInTo(page, email, "/my-account/seguridad");
    await page.getByRole("button", { name: "Crear una llave de acceso" }).click();
    await expect(page.getByTestId("passkey-error")).toHaveText(
      "Esta llave de acceso es de otro sitio y no sirve en Conecta Móvil. Entra con tu contraseña.",
    );
    await expect(page.getByTestId("passkeys-empty")).toBeVisible();
  });
});

test("without JavaScript no passkey button, and the password signs in as before", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, "the journey without JavaScript");
  const email = uniqueEmail("sin-js");
  await accountReady(page, request, email);
  await expect(
    page.getByRole("button", { name: "Iniciar sesión con llave de acceso" }),
  ).toHaveCount(0);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);
});

test("a remembered device skips the code; forgotten, the code is asked again; removed elsewhere, it is dropped", async ({
  browser,
  javaScriptEnabled,
}, testInfo) => {
  // Five one-time authenticator codes span at least three 30-second steps: on a server of the
  // test's own, whose clock the codes move on.
  const own = await serverWithMovableClock(browser, testInfo);
  try {
    await rememberedDeviceJourney(own, browser, javaScriptEnabled);
  } finally {
    await own.close();
  }
});

async function rememberedDeviceJourney(
  { page, request, server, baseURL }: Awaited<ReturnType<typeof serverWithMovableClock>>,
  browser: Browser,
  javaScriptEnabled: boolean,
) {
  const email = uniqueEmail("recordar");
  await accountReady(page, request, email);
  await signIn(page, email);
  await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  const code = authenticatorApp(secret, server);
  await page.getByLabel("Código de tu app de autenticación").fill(await code());
  await page.getByRole("button", { name: "Verificar y activar" }).click();
  await expect(page).toHaveURL(/\/my-account$/);
  await signOut(page);

  await signInWithTotp(page, email, code, true);
  // The account is told of the browser it now remembers.
  await expectEmailed(request, email, "Tu cuenta recuerda un dispositivo nuevo");
  await signOut(page);
  // Signing out kept the device: the password alone signs in.
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);

  await page.goto("/my-account/seguridad");
  await expect(page.getByTestId("device")).toHaveCount(1);
  await expect(page.getByTestId("device")).toContainText("Chrome en Linux");
  await expect(page.getByTestId("device")).toContainText("(este navegador)");
  await page.getByRole("button", { name: /^Olvidar Chrome/ }).click();
  await expectFlash(page, "Olvidamos el dispositivo");
  await expect(page.getByTestId("devices-empty")).toBeVisible();
  await signOut(page);
  // Forgotten: the code is asked again (and this browser is remembered once more).
  await signInWithTotp(page, email, code, true);
  await page.goto("/my-account/seguridad");
  await expect(page.getByTestId("device")).toHaveCount(1);

  // Another browser of the same customer forgets every device: this one still holds its keys.
  const other = await browser.newContext({ baseURL, javaScriptEnabled, locale: "es-MX" });
  const otherPage = await other.newPage();
  await otherPage.goto("/auth/sign-in");
  await signInWithTotp(otherPage, email, code, false);
  await otherPage.goto("/my-account/seguridad");
  await otherPage.getByRole("button", { name: "Olvidar todos los dispositivos" }).click();
  await expectFlash(otherPage, "Olvidamos todos tus dispositivos");
  await expect(otherPage.getByTestId("devices-empty")).toBeVisible();
  await other.close();

  await signOut(page);
  // Cognito no longer knows the device: this browser drops it, and the sign-in asks for the code.
  await signInWithTotp(page, email, code, false);
  await page.goto("/my-account/seguridad");
  await expect(page.getByTestId("devices-empty")).toBeVisible();
  await signOut(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-in$/);
}
