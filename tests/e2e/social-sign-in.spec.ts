import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import {
  createAccount,
  expectFlash,
  latestCode,
  signIn,
  signOut,
  uniqueEmail,
} from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  ORDER_CONFIRMATION_URL,
  submitCheckout,
} from "./support/commerce";

/**
 * Social sign-in (decision 0069) against the embedded emulator's stand-in for Cognito's hosted
 * pages: a server of its own with SOCIAL_PROVIDERS=google,facebook. No real provider is called;
 * the stand-in vouches for a typed e-mail only when the tester ticks its box (decision 0081).
 */

const nav = (page: Page) => page.getByRole("navigation", { name: "Navegación principal" });
const socialLinks = (page: Page) =>
  page.getByRole("navigation", { name: "Otras formas de iniciar sesión" }).getByRole("link");

let server: ServerProcess;
let base: string;

test.beforeAll(async () => {
  const port = freePort(test.info().workerIndex);
  base = `http://localhost:${port}`;
  server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET: "social-sign-in-secret-0123456789-abcdefghijklmn",
    SOCIAL_PROVIDERS: "google,facebook",
    AUTH_RATE_LIMIT_PER_IP: "1000000",
  });
  await waitForHealth(base, server);
});

test.afterAll(async () => {
  if (server) await stopServer(server);
});

async function socialBrowser(browser: Browser, javaScriptEnabled: boolean) {
  return browser.newContext({ baseURL: base, javaScriptEnabled, locale: "es-MX" });
}

/** From the account page to the test provider's page, through the sign-in page's button. */
async function toProviderPage(page: Page, provider: "Google" | "Facebook") {
  await page.goto("/my-account");
  await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account$/);
  await page.getByRole("link", { name: `Continuar con ${provider}` }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?/);
  await expect(
    page.getByRole("heading", { name: `Proveedor de prueba: ${provider}` }),
  ).toBeVisible();
}

test("a customer signs in with Google and lands on the account; sign-out also ends the hosted session", async ({
  browser,
  javaScriptEnabled,
}) => {
  const context = await socialBrowser(browser, javaScriptEnabled);
  try {
    const page = await context.newPage();
    await page.goto("/auth/sign-in");
    await expect(page.getByText("o continúa con")).toBeVisible();
    // Only the configured providers, as plain links that carry nothing but the destination.
    await expect(socialLinks(page)).toHaveText(["Continuar con Facebook", "Continuar con Google"]);
    await expectNoAxeViolations(page);
    await page.goto("/auth/sign-up");
    await expect(socialLinks(page)).toHaveCount(2);

    const email = uniqueEmail("social");
    await toProviderPage(page, "Google");
    await page.getByLabel("Correo de tu cuenta de Google").fill(email);
    // Google vouches for the address (its email_verified, mapped by the pool): no code asked.
    await page.getByLabel(/^Google confirma que este correo es de esta cuenta/).check();
    await page.getByRole("button", { name: "Continuar" }).click();

    await expect(page).toHaveURL(new RegExp(`^${base}/my-account$`));
    await expect(page.getByTestId("account-email")).toHaveText(email);
    await expect(page.getByTestId("account-email-verified")).toHaveText("Verificado");
    await expectFlash(page, "Iniciaste sesión.");
    // The code and state are spent: nothing of the transaction is left in the browser.
    const cookies = await context.cookies(base);
    expect(cookies.map((cookie) => cookie.name)).not.toContain("auth_oauth");

    await signOut(page);
    await expect(page).toHaveURL(`${base}/`);
    await expectFlash(page, "Cerraste sesión.");
    await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);
    await page.goto("/my-account");
    await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account$/);

    // The same Google account again is the same customer.
    await page.getByRole("link", { name: "Continuar con Google" }).click();
    await page.getByLabel("Correo de tu cuenta de Google").fill(email);
    await page.getByLabel(/^Google confirma que este correo es de esta cuenta/).check();
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(page.getByTestId("account-email")).toHaveText(email);
  } finally {
    await context.close();
  }
});

test("typing someone's e-mail at a provider that does not vouch for it opens none of their guest orders; a code sent to it does", async ({
  browser,
  javaScriptEnabled,
}) => {
  // Three customers' journeys in one test: a checkout, a sign-up and two sign-ins. Over a minute
  // on a machine running the whole suite (CI, stop 39).
  test.slow();
  const email = uniqueEmail("invitado");
  const guest = await socialBrowser(browser, javaScriptEnabled);
  const owner = await socialBrowser(browser, javaScriptEnabled);
  const intruder = await socialBrowser(browser, javaScriptEnabled);
  try {
    // The owner of the address buys as a guest…
    const shop = await guest.newPage();
    await cartWith(shop, "Conecta 200");
    await shop.goto("/checkout");
    await fillCheckout(shop, email);
    await choosePaymentMethod(shop, "cash");
    await submitCheckout(shop);
    await expect(shop).toHaveURL(ORDER_CONFIRMATION_URL);
    const folio = (await shop.getByTestId("order-folio").textContent())!;
    const orderPage = shop.url();

    // …and the password account that confirmed the address by code finds the order.
    const account = await owner.newPage();
    await createAccount(account, account.request, email);
    await account.goto("/my-account");
    await signIn(account, email);
    await expect(account).toHaveURL(new RegExp(`^${base}/my-account$`));
    await expect(account.getByTestId("account-orders")).toContainText(folio);

    // Someone else types that address at the provider's page; the box that would make the
    // provider vouch for it stays as it is, unticked.
    const page = await intruder.newPage();
    await toProviderPage(page, "Google");
    await page.getByLabel("Correo de tu cuenta de Google").fill(email);
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toBeVisible();
    await page.goto("/my-account");
    await expect(page.getByTestId("account-email")).toHaveText(email);
    await expect(page.getByTestId("account-history")).toBeVisible();
    await expect(page.getByTestId("account-history")).not.toContainText(folio);
    const opened = await page.goto(orderPage);
    expect(opened?.status()).toBe(404);
    await expect(page.getByText(folio)).toHaveCount(0);
    // Signed in, but the address is not theirs until a code sent to it comes back.
    await page.goto("/my-account");
    await expect(page.getByTestId("account-email-verified")).toContainText("Sin verificar");

    // A code sent to the address and typed back proves it: then the order is this account's too.
    await page.goto("/auth/verify-user?redirectTo=%2Fmy-account");
    await page.getByRole("button", { name: "Enviar código" }).click();
    await expect(page).toHaveURL(/\/auth\/confirm-verify-user\?attr=email/);
    const code = await latestCode(page.request, email, "VerifyUserAttribute");
    await page.getByLabel("Código de verificación").fill(code);
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page).toHaveURL(new RegExp(`^${base}/my-account$`));
    await expect(page.getByTestId("account-email-verified")).toHaveText("Verificado");
    await expect(page.getByTestId("account-orders")).toContainText(folio);
  } finally {
    await Promise.all([guest.close(), owner.close(), intruder.close()]);
  }
});

test("a customer who cancels at the provider is back on sign-in with the Spanish message, signed out", async ({
  browser,
  javaScriptEnabled,
}) => {
  const context = await socialBrowser(browser, javaScriptEnabled);
  try {
    const page = await context.newPage();
    await toProviderPage(page, "Facebook");
    await page.getByRole("link", { name: "Cancelar" }).click();
    await expect(page).toHaveURL(new RegExp(`^${base}/auth/sign-in\\?redirectTo=%2Fmy-account$`));
    await expectFlash(
      page,
      "Cancelaste el inicio de sesión con tu otra cuenta. Puedes intentarlo de nuevo o entrar con tu correo y contraseña.",
    );
    await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);
    await expectNoAxeViolations(page);
  } finally {
    await context.close();
  }
});

test("an answer whose state does not match is refused in Spanish and opens no session, even with a good code", async ({
  browser,
  javaScriptEnabled,
}) => {
  const context = await socialBrowser(browser, javaScriptEnabled);
  try {
    const page = await context.newPage();
    await toProviderPage(page, "Google");
    await page.getByLabel("Correo de tu cuenta de Google").fill(uniqueEmail("estado"));
    // Keep the provider's genuine answer from reaching the store, to send a forged one instead.
    // (A redirect's next hop cannot be intercepted: the provider's own answer is.)
    let genuine = "";
    await page.route(
      (url) => url.origin !== base && url.pathname === "/oauth2/authorize",
      async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        const answer = await route.fetch({ maxRedirects: 0 });
        genuine = answer.headers()["location"] ?? "";
        return route.fulfill({ status: 200, contentType: "text/html", body: "<p>detenido</p>" });
      },
    );
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect.poll(() => genuine).not.toBe("");
    await page.unrouteAll();
    const forged = new URL(genuine);
    expect(forged.searchParams.get("code")).toBeTruthy();
    forged.searchParams.set("state", "x".repeat(32));

    await page.goto(forged.toString());
    await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account$/);
    await expectFlash(
      page,
      "No pudimos validar el inicio de sesión: la solicitud venció o no es válida. Inténtalo de nuevo.",
    );
    await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);

    // The refusal ended the transaction: the genuine answer, arriving late, is refused too.
    await page.goto(genuine);
    await expectFlash(page, "No pudimos validar el inicio de sesión");
    await page.goto("/my-account");
    await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account$/);
  } finally {
    await context.close();
  }
});

test("an answer reaching a browser that never started the sign-in (no state cookie) is refused", async ({
  browser,
  javaScriptEnabled,
}) => {
  const context = await socialBrowser(browser, javaScriptEnabled);
  try {
    const page = await context.newPage();
    await toProviderPage(page, "Google");
    await page.getByLabel("Correo de tu cuenta de Google").fill(uniqueEmail("sincookie"));
    // Another browser (an attacker's link) holds no auth_oauth cookie.
    await context.clearCookies({ name: "auth_oauth" });
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(page).toHaveURL(new RegExp(`^${base}/auth/sign-in`));
    await expectFlash(page, "No pudimos validar el inicio de sesión");
    await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("without SOCIAL_PROVIDERS (the default server) there are no provider buttons and no social routes", async ({
  page,
}) => {
  await page.goto("/auth/sign-in");
  await expect(page.getByRole("heading", { name: "Inicia sesión" })).toBeVisible();
  await expect(page.getByText("o continúa con")).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Continuar con/ })).toHaveCount(0);
  await page.goto("/auth/sign-up");
  await expect(page.getByRole("link", { name: /^Continuar con/ })).toHaveCount(0);
  const response = await page.request.get("/auth/oauth/google", { maxRedirects: 0 });
  expect(response.status()).toBe(404);
});
