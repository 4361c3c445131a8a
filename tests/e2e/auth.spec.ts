import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { authenticator } from "otplib";
import {
  NEW_PASSWORD,
  PASSWORD,
  adminCreateUser,
  accountReady,
  expectFlash,
  fillSignUp,
  formAlert,
  latestCode,
  outboxCount,
  signIn,
  signOut,
  uniqueEmail,
} from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { emulatorTarget } from "./support/customers";
import { serverWithMovableClock } from "./support/own-server";

const nav = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Navegación principal" });

test("a newcomer signs up, confirms with the emailed code and is signed in without typing the password again, then signs out", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("alta");
  await page.goto("/auth/sign-up");
  await expect(page).toHaveTitle("Conecta Móvil | Crear cuenta");
  await expect(page.getByRole("heading", { level: 1, name: "Crea tu cuenta" })).toBeVisible();
  await expectNoAxeViolations(page);

  await fillSignUp(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
  await expectFlash(page, "Creamos tu cuenta. Te enviamos un código");
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
  await expectNoAxeViolations(page);

  const code = await latestCode(request, email, "SignUp");
  await page.getByLabel("Código de verificación").fill(code);
  await page.getByRole("button", { name: "Confirmar cuenta" }).click();

  await expect(page).toHaveURL(/\/my-account$/);
  await expectFlash(page, "Confirmaste tu cuenta y ya iniciaste sesión.");
  await expect(page).toHaveTitle("Conecta Móvil | Mi cuenta");
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await expect(page.getByTestId("account-email-verified")).toHaveText("Verificado");
  await expect(page.getByTestId("account-mfa-status")).toContainText("Desactivada");
  await expect(nav(page).getByRole("button", { name: "Cerrar sesión" }).first()).toBeVisible();
  await expectNoAxeViolations(page);

  await signOut(page);
  await expectFlash(page, "Cerraste sesión.");
  await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);
  await page.goto("/my-account");
  await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account$/);

  // The password chosen at sign-up is the one that signs in from now on.
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
});

test("a visitor sent to sign-in creates an account instead and lands, signed in, where they were going", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("destino");
  await page.goto("/my-account/recarga");
  await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account%2Frecarga$/);
  await page.getByRole("link", { name: "Crear cuenta" }).click();
  await expect(page).toHaveURL(/\/auth\/sign-up\?redirectTo=%2Fmy-account%2Frecarga$/);
  // With JavaScript the address changes just before the new page is drawn, and the sign-in page
  // has a "Correo electrónico" too: the customer types once the sign-up page is there.
  await expect(page.getByRole("heading", { level: 1, name: "Crea tu cuenta" })).toBeVisible();
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirma la contraseña").fill(PASSWORD);
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
  await page.getByLabel("Código de verificación").fill(await latestCode(request, email, "SignUp"));
  await page.getByRole("button", { name: "Confirmar cuenta" }).click();
  await expect(page).toHaveURL(/\/my-account\/recarga$/);
  await expectFlash(page, "Confirmaste tu cuenta y ya iniciaste sesión.");
});

test("a code confirmed after the 180-second window: the account is confirmed, and sign-in says it was not on time", async ({
  browser,
}, testInfo) => {
  // The spec's automatic sign-in waits 180 s for the code; this customer found it later. A window
  // of the server's clock, the same with JavaScript or without: one project runs it (the
  // confirmation form's journeys run in both). The server's clock is moved past it, on a server
  // of the test's own.
  test.skip(!testInfo.project.use.javaScriptEnabled, "a server-side window: runs once");
  const own = await serverWithMovableClock(browser, testInfo);
  try {
    const { page, request } = own;
    const email = uniqueEmail("tarde");
    await fillSignUp(page, email);
    await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
    const code = await latestCode(request, email, "SignUp");
    await own.server.moveClock(185);
    await page.reload();
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
    await page.getByLabel("Código de verificación").fill(code);
    await page.getByRole("button", { name: "Confirmar cuenta" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-in$/);
    await expectFlash(page, "La cuenta no se confirmó a tiempo");
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
    await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
    await expect(page).toHaveURL(/\/my-account$/);
  } finally {
    await own.close();
  }
});

test("a wrong password is refused in Spanish and the email stays in the form", async ({
  page,
  request,
}, testInfo) => {
  const email = uniqueEmail("clave");
  await accountReady(page, request, email);
  await signIn(page, email, "Otra-Clave-99");
  await expect(formAlert(page)).toHaveText("Correo o contraseña incorrectos.");
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
  if (testInfo.project.name === "js-disabled") {
    // The server never sends a password back.
    await expect(page.getByLabel("Contraseña")).toHaveValue("");
  }
  await expectNoAxeViolations(page);
});

test("an unknown email gets the same answer as a wrong password", async ({ page }) => {
  await signIn(page, uniqueEmail("nadie"), PASSWORD);
  await expect(formAlert(page)).toHaveText("Correo o contraseña incorrectos.");
  await expect(nav(page).getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);
});

test("signing up with an email that already has an account says so", async ({
  page,
  request,
}, testInfo) => {
  const email = uniqueEmail("repetido");
  await accountReady(page, request, email);
  await fillSignUp(page, email);
  await expect(formAlert(page)).toContainText("Ya existe una cuenta con este correo");
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
  if (testInfo.project.name === "js-disabled") {
    await expect(page.getByLabel("Contraseña", { exact: true })).toHaveValue("");
  }
});

test("sign-up rules are checked in Spanish and the values are kept", async ({ page }) => {
  const email = uniqueEmail("reglas");
  await page.goto("/auth/sign-up");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill("corta");
  await page.getByLabel("Confirma la contraseña").fill("distinta");
  await page.getByLabel("Número de celular").fill("55 1234");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByText("La contraseña debe tener al menos 8 caracteres.")).toBeVisible();
  await expect(page.getByText("Las contraseñas deben coincidir.")).toBeVisible();
  await expect(page.getByText("Formato de número de teléfono no válido.")).toBeVisible();
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
  await expect(page.getByLabel("Número de celular")).toHaveValue("55 1234");
  await expect(page.getByLabel("Contraseña", { exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await expect(page).toHaveURL(/\/auth\/sign-up$/);
  await expectNoAxeViolations(page);
});

/** The phone Cognito stored for this user (the embedded emulator's admin API). */
async function storedPhone(request: APIRequestContext, email: string) {
  const { endpoint, userPoolId } = await emulatorTarget(request);
  const response = await request.post(endpoint, {
    headers: {
      "Content-Type": "application/x-amz-json-1.1",
      "X-Amz-Target": "AWSCognitoIdentityProviderService.AdminGetUser",
    },
    data: JSON.stringify({ UserPoolId: userPoolId, Username: email }),
  });
  expect(response.ok(), await response.text()).toBe(true);
  const user = (await response.json()) as { UserAttributes: { Name: string; Value: string }[] };
  return user.UserAttributes.find((attribute) => attribute.Name === "phone_number")?.Value;
}

const countrySelect = (page: Page) => page.getByLabel("País y lada");

test("the phone's country: every country in Spanish, México (+52) first and chosen", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/auth/sign-up");
  const select = countrySelect(page);
  await expect(select).toHaveValue("MX");
  const options = select.locator("option");
  await expect(options.first()).toHaveText("México (+52)");
  expect(await options.count()).toBeGreaterThan(200);
  await expect(select.locator('option[value="US"]')).toHaveText("Estados Unidos (+1)");
  await expect(select.locator('option[value="CA"]')).toHaveText("Canadá (+1)");
  await expect(select.locator('option[value="ES"]')).toHaveText("España (+34)");
  const names = await options.allTextContents();
  const rest = names.slice(1);
  expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, "es")));
  // The server's list and the hydrated one are the same: React reports no mismatch.
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);
});

for (const { country, label, number, e164 } of [
  { country: "US", label: "Estados Unidos (+1)", number: "(202) 555-0123", e164: "+12025550123" },
  { country: "ES", label: "España (+34)", number: "612 34 56 78", e164: "+34612345678" },
]) {
  test(`a phone from ${label} is accepted and reaches Cognito as ${e164}`, async ({
    page,
    request,
  }) => {
    const email = uniqueEmail(`tel-${country.toLowerCase()}`);
    await page.goto("/auth/sign-up");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirma la contraseña").fill(PASSWORD);
    await countrySelect(page).selectOption(country);
    await page.getByLabel("Número de celular").fill(number);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
    expect(await storedPhone(request, email)).toBe(e164);
  });
}

test("a malformed phone for the chosen country is refused in Spanish and the country is kept", async ({
  page,
}, testInfo) => {
  const posts: string[] = [];
  page.on("request", (sent) => {
    if (sent.method() === "POST") posts.push(sent.url());
  });
  await page.goto("/auth/sign-up");
  // Pressed before the page turned interactive, the browser itself sends the form (the server
  // refuses it the same way); what is checked with JavaScript is the page's own refusal.
  if (testInfo.project.name === "js-enabled") {
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  }
  await page.getByLabel("Correo electrónico").fill(uniqueEmail("tel-mal"));
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirma la contraseña").fill(PASSWORD);
  await countrySelect(page).selectOption("ES");
  // A valid Mexican number, but not a Spanish one.
  await page.getByLabel("Número de celular").fill("55 1234 5678");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByText("Formato de número de teléfono no válido.")).toBeVisible();
  await expect(page.getByLabel("Número de celular")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/auth\/sign-up$/);
  await expect(countrySelect(page)).toHaveValue("ES");
  await expect(page.getByLabel("Número de celular")).toHaveValue("55 1234 5678");
  // With JavaScript the browser refuses it with the same rules: nothing was sent.
  expect(posts).toHaveLength(testInfo.project.name === "js-enabled" ? 0 : 1);
  await expectNoAxeViolations(page);
});

test("the sign-up button is never disabled: pressing it shows every field's error, however early they were typed", async ({
  page,
}, testInfo) => {
  test.skip(
    testInfo.project.name === "js-disabled",
    "without JavaScript the server's answer shows the errors (the test above)",
  );
  await page.goto("/auth/sign-up");
  const button = page.getByRole("button", { name: "Crear cuenta" });
  // Typed at once, perhaps before the page turned interactive: no field was checked on leaving.
  await page.getByLabel("Correo electrónico").fill("no-es-correo");
  await page.getByLabel("Contraseña", { exact: true }).fill("corta");
  await page.getByLabel("Confirma la contraseña").fill("distinta");
  await page.getByLabel("Número de celular").fill("55 1234");
  await page.getByLabel("Correo electrónico").focus();
  // A disabled button would leave the customer stuck with errors they cannot see.
  await expect(button).toBeEnabled();
  await button.click();
  for (const message of [
    "Escribe un correo electrónico válido",
    "La contraseña debe tener al menos 8 caracteres.",
    "Las contraseñas deben coincidir.",
    "Formato de número de teléfono no válido.",
  ]) {
    await expect(page.getByText(message).first()).toBeVisible();
  }
  await expect(button).toBeEnabled();
  await expect(page).toHaveURL(/\/auth\/sign-up$/);
  await page.getByLabel("Correo electrónico").fill(uniqueEmail("corrige"));
  await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirma la contraseña").fill(PASSWORD);
  await page.getByLabel("Número de celular").fill("");
  await button.click();
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
});

test("a forgotten password is reset with the emailed code and the new one signs in", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("olvido");
  await accountReady(page, request, email);
  await page.getByRole("link", { name: "¿Olvidaste tu contraseña?" }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await expectNoAxeViolations(page);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviar código" }).click();

  await expect(page).toHaveURL(/\/auth\/confirm-reset-password$/);
  await expectFlash(page, "Te enviamos un código para restablecer tu contraseña.");
  await expectNoAxeViolations(page);
  const code = await latestCode(request, email, "ForgotPassword");
  await page.getByLabel("Código de verificación").fill(code);
  await page.getByLabel("Nueva contraseña").fill(NEW_PASSWORD);
  await page.getByLabel("Confirma la contraseña").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();

  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expectFlash(page, "Cambiaste tu contraseña.");
  await signIn(page, email, PASSWORD);
  await expect(formAlert(page)).toHaveText("Correo o contraseña incorrectos.");
  await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/my-account$/);
});

test("a confirmation code can be resent, and a wrong one is refused", async ({ page, request }) => {
  const email = uniqueEmail("reenvio");
  await fillSignUp(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
  await page.getByLabel("Código de verificación").fill("000000");
  await page.getByRole("button", { name: "Confirmar cuenta" }).click();
  await expect(formAlert(page)).toContainText("Código de verificación no válido");
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);

  const before = await outboxCount(request, email, "ResendCode");
  await page.getByRole("button", { name: "Reenviar código" }).click();
  await expectFlash(page, "Te enviamos un código nuevo.");
  const code = await latestCode(request, email, "ResendCode", before);
  await page.getByLabel("Código de verificación").fill(code);
  await page.getByRole("button", { name: "Confirmar cuenta" }).click();
  // A new code does not cost the automatic sign-in.
  await expect(page).toHaveURL(/\/my-account$/);
  await signOut(page);

  // Resending after confirmation ("User is already confirmed.") counts as success.
  await page.goto("/auth/confirm-sign-up");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Reenviar código" }).click();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expectFlash(page, "Tu cuenta ya estaba confirmada.");
});

test("signing in before confirming leads to the confirmation with a fresh code", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("sinconfirmar");
  await fillSignUp(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
  await signIn(page, email, PASSWORD, "/auth/sign-in");
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
  await expectFlash(page, "Tu cuenta aún no está confirmada.");
  const code = await latestCode(request, email, "ResendCode");
  await page.getByLabel("Código de verificación").fill(code);
  await page.getByRole("button", { name: "Confirmar cuenta" }).click();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
});

test("a user created by an operator sets a new password, verifies the email and reaches the account", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("operador");
  await adminCreateUser(request, email, "Temporal-1x");
  await signIn(page, email, "Temporal-1x");
  await expect(page).toHaveURL(/\/auth\/force-new-password$/);
  await expect(page.getByRole("heading", { level: 1, name: "Crea tu contraseña" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Nueva contraseña").fill(NEW_PASSWORD);
  await page.getByLabel("Confirma la contraseña").fill("Otra-Distinta-1");
  await page.getByRole("button", { name: "Guardar contraseña" }).click({ force: true });
  await expect(page.getByText("Las contraseñas deben coincidir.")).toBeVisible();
  await page.getByLabel("Nueva contraseña").fill(NEW_PASSWORD);
  await page.getByLabel("Confirma la contraseña").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Guardar contraseña" }).click();

  // The operator did not verify the email: the spec offers verify-user (skip allowed).
  await expect(page).toHaveURL(/\/auth\/verify-user\?redirectTo=%2Fmy-account$/);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Enviar código" }).click();
  await expect(page).toHaveURL(/\/auth\/confirm-verify-user\?attr=email/);
  const code = await latestCode(request, email, "VerifyUserAttribute");
  await page.getByLabel("Código de verificación").fill(code);
  await page.getByRole("button", { name: "Verificar" }).click();

  await expect(page).toHaveURL(/\/my-account$/);
  await expect(page.getByTestId("account-email-verified")).toHaveText("Verificado");
  await signOut(page);
  await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/my-account$/);
});

test("an authenticator app set up from the account is asked for at the next sign-in", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("totp");
  await accountReady(page, request, email);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);

  await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
  await expect(page).toHaveURL(/\/auth\/setup-totp$/);
  const qr = page.getByTestId("totp-qr");
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute("width", "228");
  await expect(qr).toHaveAttribute("src", /^data:image\/png;base64,/);
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoAxeViolations(page);

  await page.getByLabel("Código de tu app de autenticación").fill("123456");
  await page.getByRole("button", { name: "Verificar y activar" }).click();
  await expect(formAlert(page)).toContainText("Código de verificación no válido");

  await page.getByLabel("Código de tu app de autenticación").fill(authenticator.generate(secret));
  await page.getByRole("button", { name: "Verificar y activar" }).click();
  await expect(page).toHaveURL(/\/my-account$/);
  await expect(page.getByTestId("account-mfa-status")).toContainText("App de autenticación");
  await expect(page.getByTestId("account-mfa-preferred")).toContainText("App de autenticación");

  await signOut(page);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-in$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "Escribe el código de tu app de autenticación" }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  // A code is accepted once: answer with the next 30-second step's code (within the window).
  const nextCode = authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret);
  await page.getByLabel("Código de verificación").fill(nextCode);
  await page.getByRole("button", { name: "Confirmar" }).click();
  await expect(page).toHaveURL(/\/my-account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);

  // Turning MFA off from the account: the next sign-in needs only the password.
  await page.getByLabel(/Ninguno/).check();
  await page.getByRole("button", { name: "Guardar preferencia" }).click();
  await expectFlash(page, "Desactivaste la verificación en dos pasos.");
  await expect(page.getByTestId("account-mfa-status")).toContainText("Desactivada");
});

test("a protected page sends the visitor to sign-in and back after it", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("regreso");
  await accountReady(page, request, email);
  await page.goto("/my-account/recarga");
  await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account%2Frecarga$/);
  await expectFlash(page, "Inicia sesión para continuar.");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(PASSWORD);
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
  await expect(page).toHaveURL(/\/my-account\/recarga$/);
  // Signed in, the page does not tell the customer they need no account.
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("No necesitas cuenta")).toHaveCount(0);
  await expect(page.getByText(/la recarga queda en tu historial/)).toBeVisible();

  // Sign-in is refused while signed in: the page sends the customer on.
  await page.goto("/auth/sign-in?redirectTo=%2Fmy-account");
  await expect(page).toHaveURL(/\/my-account$/);
  await expectFlash(page, "Ya iniciaste sesión.");
});

test("redirectTo never leaves the site", async ({ page, request }) => {
  const email = uniqueEmail("externo");
  await accountReady(page, request, email);
  await page.goto("/auth/sign-in?redirectTo=https%3A%2F%2Fevil.example%2F");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(PASSWORD);
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
  await expect(page).toHaveURL(/localhost:\d+\/my-account$/);
});

test("a code step without a sign-in in progress goes back to sign-in with an explanation", async ({
  page,
}) => {
  await page.goto("/auth/confirm-sign-in");
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expectFlash(page, "Tu inicio de sesión venció o no es válido.");
});

test("session cookies are HttpOnly, SameSite=Lax and each under 4096 bytes", async ({
  page,
  request,
  context,
}) => {
  const email = uniqueEmail("galleta");
  await accountReady(page, request, email);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);
  const cookies = (await context.cookies()).filter((cookie) => cookie.name.startsWith("auth_"));
  expect(cookies.length).toBeGreaterThan(0);
  for (const cookie of cookies) {
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    expect(cookie.name.length + cookie.value.length).toBeLessThan(4096);
    // No token in readable form: a JWT starts with its header, base64 of '{"alg":' or
    // '{"kid":'. (Three characters such as "eyJ" turn up by chance in 4 KB of ciphertext.)
    expect(cookie.value).not.toMatch(/eyJ(hbGciOi|raWQiOi)/);
  }
});

test("the development outbox page is accessible", async ({ page }) => {
  await page.goto("/dev/outbox");
  await expect(page.getByRole("heading", { level: 1, name: "Buzón de desarrollo" })).toBeVisible();
  await expectNoAxeViolations(page);
});
