import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { adminCall, createCustomer, emulatorTarget } from "./customers";

/** Meets the default policy: 8+ characters, lower, upper, number and special character. */
export const PASSWORD = "Conecta-2025x";
export const NEW_PASSWORD = "Nueva-Clave-77";

export function uniqueEmail(prefix: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now().toString(36)}-${random}@ejemplo.mx`;
}

interface OutboxMessage {
  to: string;
  purpose: string;
  code: string;
}

async function readOutbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get(`/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const rows = html.split('data-testid="outbox-message"').slice(1);
  return rows.map((row) => ({
    to: /data-testid="outbox-to">([^<]+)</.exec(row)?.[1] ?? "",
    purpose: /data-purpose="([^"]+)"/.exec(row)?.[1] ?? "",
    code: /data-testid="outbox-code">([^<]+)</.exec(row)?.[1] ?? "",
  }));
}

/** The newest code the development outbox holds for this address (and purpose), waiting for it. */
export async function latestCode(
  request: APIRequestContext,
  to: string,
  purpose?: string,
  after = 0,
): Promise<string> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const messages = (await readOutbox(request, to)).filter(
        (message) => !purpose || message.purpose === purpose,
      );
      found = messages.length > after ? messages[0] : undefined;
      return Boolean(found);
    })
    .toBe(true);
  return found!.code;
}

export async function outboxCount(request: APIRequestContext, to: string, purpose: string) {
  return (await readOutbox(request, to)).filter((message) => message.purpose === purpose).length;
}

/** Creates a user the way an operator would, with Cognito's admin API on the emulator. */
export async function adminCreateUser(
  request: APIRequestContext,
  email: string,
  temporaryPassword: string,
) {
  const { endpoint, userPoolId } = await emulatorTarget(request);
  await adminCall(request, endpoint, "AdminCreateUser", {
    UserPoolId: userPoolId,
    Username: email,
    TemporaryPassword: temporaryPassword,
    UserAttributes: [{ Name: "email", Value: email }],
    DesiredDeliveryMediums: ["EMAIL"],
  });
}

export async function fillSignUp(page: Page, email: string, password = PASSWORD) {
  await page.goto("/auth/sign-up");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByLabel("Confirma la contraseña").fill(password);
  await page.getByRole("button", { name: "Crear cuenta" }).click();
}

/**
 * A confirmed account with PASSWORD, made with the identity service's admin API (an operator's
 * calls), and the sign-in page open: for journeys that are not about signing up, which walk
 * those pages themselves (the first journeys of auth.spec.ts).
 */
export async function accountReady(page: Page, request: APIRequestContext, email: string) {
  await createCustomer(request, "cuenta", email, PASSWORD);
  await page.goto("/auth/sign-in");
}

/**
 * A confirmed account, created through the pages: the code signs the customer in (no password
 * typed again), then they sign out and the sign-in page is open. For journeys whose account must
 * have confirmed its address by code, or whose sign-up is part of what they check.
 */
export async function createAccount(page: Page, request: APIRequestContext, email: string) {
  await fillSignUp(page, email);
  await expect(page).toHaveURL(/\/auth\/confirm-sign-up$/);
  const code = await latestCode(request, email, "SignUp");
  await page.getByLabel("Código de verificación").fill(code);
  await page.getByRole("button", { name: "Confirmar cuenta" }).click();
  await expect(page).toHaveURL(/\/my-account$/);
  await signOut(page);
  await page.goto("/auth/sign-in");
}

export async function signIn(
  page: Page,
  email: string,
  password = PASSWORD,
  path = "/auth/sign-in",
) {
  if (!page.url().includes("/auth/sign-in")) await page.goto(path);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
}

export async function signOut(page: Page) {
  await page
    .getByRole("navigation", { name: "Navegación principal" })
    .getByRole("button", { name: "Cerrar sesión" })
    .first()
    .click();
  await expect(page).toHaveURL(/\/$/);
}

/** The form-level message above the submit button. */
export function formAlert(page: Page) {
  return page.getByTestId("form-alert-message");
}

/** The one-time message after a redirect (a banner without JavaScript, a toast with it). */
export async function expectFlash(page: Page, text: string) {
  await expect(page.getByTestId("flash").filter({ hasText: text }).first()).toBeVisible();
}

/** Waits for an e-mail with this subject to `email` in the development outbox. */
export async function expectEmailed(request: APIRequestContext, email: string, subject: string) {
  await expect
    .poll(
      async () => {
        const html = await (
          await request.get(`/dev/outbox?to=${encodeURIComponent(email)}`)
        ).text();
        return html.includes(`data-testid="outbox-mail-subject">${subject}<`);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}
