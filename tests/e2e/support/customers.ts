import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { uniqueEmail } from "./commerce";

export const CUSTOMER_PASSWORD = "Recarga#2026ok";

interface EmulatorTarget {
  endpoint: string;
  userPoolId: string;
}

/**
 * Where the embedded cognito-local listens, as the development outbox page reports it. Asked each
 * time: a test with a server of its own has an emulator of its own.
 */
export async function emulatorTarget(request: APIRequestContext): Promise<EmulatorTarget> {
  const html = await (await request.get("/dev/outbox")).text();
  const read = (testId: string) => {
    const match = new RegExp(`data-testid="${testId}">([^<]+)<`).exec(html);
    if (!match) throw new Error(`the outbox page does not show ${testId}`);
    return match[1];
  };
  return { endpoint: read("emulator-endpoint"), userPoolId: read("emulator-pool") };
}

export async function adminCall(
  request: APIRequestContext,
  endpoint: string,
  operation: string,
  body: unknown,
) {
  const response = await request.post(endpoint, {
    headers: {
      "Content-Type": "application/x-amz-json-1.1",
      "X-Amz-Target": `AWSCognitoIdentityProviderService.${operation}`,
    },
    data: JSON.stringify(body),
  });
  expect(response.ok(), `${operation}: ${await response.text()}`).toBe(true);
}

/**
 * A confirmed customer with a verified email, created directly in the embedded identity service
 * (an administrator's calls), so top-up tests do not depend on the sign-up screens.
 */
export async function createCustomer(
  request: APIRequestContext,
  prefix = "recarga",
  email = uniqueEmail(prefix),
  password = CUSTOMER_PASSWORD,
) {
  const { endpoint, userPoolId } = await emulatorTarget(request);
  await adminCall(request, endpoint, "AdminCreateUser", {
    UserPoolId: userPoolId,
    Username: email,
    MessageAction: "SUPPRESS",
    UserAttributes: [
      { Name: "email", Value: email },
      { Name: "email_verified", Value: "true" },
    ],
  });
  await adminCall(request, endpoint, "AdminSetUserPassword", {
    UserPoolId: userPoolId,
    Username: email,
    Password: password,
    Permanent: true,
  });
  return { email, password };
}

/** Fills and sends the sign-in form the page is on. */
export async function submitSignIn(page: Page, customer: { email: string; password: string }) {
  await expect(page).toHaveURL(/\/auth\/sign-in/);
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
}

/**
 * Signs in and opens `path`: the sign-in form's POST sent with the page's own cookies (its
 * context's request), as the form sends it without JavaScript, so the server signs the customer
 * in as always; the browser then opens `path` signed in. For journeys that are not about signing
 * in: auth.spec.ts and passkeys-devices.spec.ts walk the form itself, with and without
 * JavaScript. This skips drawing the sign-in page in the browser, most of a sign-in's cost.
 */
export async function signInTo(
  page: Page,
  customer: { email: string; password: string },
  path: string,
) {
  const signedIn = await page.request.post("/auth/sign-in", {
    form: { username: customer.email, password: customer.password, redirectTo: path },
    maxRedirects: 0,
  });
  expect(signedIn.status(), "the sign-in form's answer").toBe(303);
  expect(signedIn.headers().location).toBe(path);
  await page.goto(path);
  await expect(page).toHaveURL(path);
}
