import { expect, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { createCustomer } from "./support/customers";

// Hostile requests against the shared server: tampered cookies, other sites' forms, redirects
// off the site, password guessing. Plain HTTP, so one project runs them.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP-level checks run once");

const cartCount = (html: string) => /data-testid="cart-count"[^>]*>(\d+)</.exec(html)?.[1];

/** Every cookie the context holds, as name → value. */
async function cookiesOf(context: APIRequestContext) {
  const { cookies } = await context.storageState();
  return new Map(cookies.map((cookie) => [cookie.name, cookie.value]));
}

function cookieHeader(cookies: Map<string, string>) {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

async function signedIn(playwright: typeof import("@playwright/test").request) {
  const setup = await playwright.newContext({ baseURL: BASE_URL });
  const customer = await createCustomer(setup, "seguridad");
  await setup.dispose();
  const browser = await playwright.newContext({ baseURL: BASE_URL });
  const response = await browser.post("/auth/sign-in", {
    form: { username: customer.email, password: customer.password },
    headers: { Origin: BASE_URL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  return { browser, customer };
}

test("a tampered, truncated, oversized or misplaced cart cookie reads as an empty cart", async ({
  playwright,
}) => {
  const shopper = await playwright.request.newContext({ baseURL: BASE_URL });
  await shopper.post("/cart", { form: { intent: "add", id: "conecta-100" }, maxRedirects: 0 });
  const genuine = (await cookiesOf(shopper)).get("cart")!;
  expect(genuine).toBeTruthy();
  expect(cartCount(await (await shopper.get("/cart")).text())).toBe("1");
  await shopper.dispose();

  const flipped = `${genuine.slice(0, 20)}${genuine[20] === "A" ? "B" : "A"}${genuine.slice(21)}`;
  const variants = {
    flipped,
    truncated: genuine.slice(0, Math.floor(genuine.length / 2)),
    extended: `${genuine}AAAA`,
    oversized: "A".repeat(4000),
    empty: "",
    notBase64: "%%%***",
    // A value sealed for another cookie name must not open as a cart.
    anotherCookie: genuine,
  };
  for (const [name, value] of Object.entries(variants)) {
    const header = name === "anotherCookie" ? `flash=${value}` : `cart=${value}`;
    const response = await fetch(`${BASE_URL}/cart`, { headers: { Cookie: header } });
    expect(response.status, name).toBe(200);
    const html = await response.text();
    expect(cartCount(html), name).toBe("0");
    expect(html, name).toContain("Tu carrito está vacío.");
  }
});

test("a session cookie with a chunk missing, tampered or truncated reads as signed out", async ({
  playwright,
}) => {
  const { browser, customer } = await signedIn(playwright.request);
  const cookies = await cookiesOf(browser);
  await browser.dispose();
  const sessionNames = [...cookies.keys()].filter((name) => name.startsWith("auth_session"));
  expect(sessionNames.length).toBeGreaterThan(0);
  const account = await fetch(`${BASE_URL}/my-account`, {
    headers: { Cookie: cookieHeader(cookies) },
    redirect: "manual",
  });
  expect(account.status).toBe(200);
  const signedInHome = await fetch(`${BASE_URL}/`, { headers: { Cookie: cookieHeader(cookies) } });
  expect(await signedInHome.text()).toContain(customer.email);

  const broken: Record<string, Map<string, string>> = {};
  const withoutFirst = new Map(cookies);
  withoutFirst.delete(sessionNames[0]);
  broken.chunkMissing = withoutFirst;
  const tampered = new Map(cookies);
  const value = cookies.get(sessionNames[0])!;
  tampered.set(sessionNames[0], `${value.slice(0, -6)}AAAAAA`);
  broken.tampered = tampered;
  const truncated = new Map(cookies);
  truncated.set(sessionNames[0], value.slice(0, 30));
  broken.truncated = truncated;

  for (const [name, jar] of Object.entries(broken)) {
    const page = await fetch(`${BASE_URL}/my-account`, {
      headers: { Cookie: cookieHeader(jar) },
      redirect: "manual",
    });
    expect(page.status, name).toBeGreaterThanOrEqual(300);
    expect(page.status, name).toBeLessThan(400);
    expect(page.headers.get("location"), name).toMatch(/^\/auth\/sign-in/);
    const home = await fetch(`${BASE_URL}/`, { headers: { Cookie: cookieHeader(jar) } });
    expect(home.status, name).toBe(200);
    expect(await home.text(), name).not.toContain(customer.email);
  }
});

test("another site's form is refused on every route that accepts one", async () => {
  const routes = [
    "/cart",
    "/checkout",
    "/portabilidad",
    "/my-account/recarga",
    "/my-account",
    "/auth/sign-in",
    "/auth/sign-up",
    "/auth/sign-out",
    "/auth/forgot-password",
    "/auth/confirm-reset-password",
    "/auth/confirm-sign-up",
    "/auth/confirm-sign-in",
    "/auth/force-new-password",
    "/auth/select-mfa-type",
    "/auth/setup-totp",
    "/auth/setup-email",
    "/auth/verify-user",
    "/auth/confirm-verify-user",
    "/sandbox/pago/chk_cualquiera",
  ];
  for (const route of routes) {
    for (const origin of ["https://sitio-ajeno.example", "null"]) {
      const response = await fetch(`${BASE_URL}${route}`, {
        method: "POST",
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
        body: "intent=add&id=conecta-100",
        redirect: "manual",
      });
      expect(response.status, `${route} from ${origin}`).toBe(403);
      expect(await response.text(), route).toContain("origen no permitido");
    }
  }
});

const OFF_SITE = [
  "https://sitio-ajeno.example/robar",
  "//sitio-ajeno.example",
  "/\\sitio-ajeno.example",
  "\\\\sitio-ajeno.example",
  "%2F%2Fsitio-ajeno.example",
  "/%2F%2Fsitio-ajeno.example",
  "javascript:alert(1)",
  "/\t/sitio-ajeno.example",
  "/\n/sitio-ajeno.example",
  "/%09/sitio-ajeno.example",
  "https:sitio-ajeno.example",
  " //sitio-ajeno.example",
];

function staysOnSite(location: string | null | undefined) {
  expect(location).toBeTruthy();
  const target = new URL(location!, BASE_URL);
  expect(target.origin, location!).toBe(new URL(BASE_URL).origin);
}

test("redirectTo never sends a customer to another site", async ({ playwright }) => {
  const setup = await playwright.request.newContext({ baseURL: BASE_URL });
  const customer = await createCustomer(setup, "redireccion");
  await setup.dispose();
  for (const redirectTo of OFF_SITE) {
    const form = await fetch(
      `${BASE_URL}/auth/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`,
    );
    expect(form.status, redirectTo).toBe(200);
    const hidden = /name="redirectTo" value="([^"]*)"/.exec(await form.text())?.[1];
    if (hidden !== undefined) staysOnSite(hidden.replaceAll("&amp;", "&"));

    const browser = await playwright.request.newContext({ baseURL: BASE_URL });
    const signIn = await browser.post("/auth/sign-in", {
      form: { username: customer.email, password: customer.password, redirectTo },
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(signIn.status(), redirectTo).toBe(303);
    staysOnSite(signIn.headers().location);
    await browser.dispose();

    const cart = await fetch(`${BASE_URL}/cart`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "add", id: "conecta-100", redirectTo }),
      redirect: "manual",
    });
    expect(cart.status, redirectTo).toBe(303);
    staysOnSite(cart.headers.get("location"));
  }
});

test("guessing one account's password meets a Spanish 429 on the sixth try, even with the right password", async ({
  playwright,
}) => {
  const setup = await playwright.request.newContext({ baseURL: BASE_URL });
  const customer = await createCustomer(setup, "fuerza-bruta");
  await setup.dispose();
  const guesser = await playwright.request.newContext({ baseURL: BASE_URL });
  const attempt = (password: string) =>
    guesser.post("/auth/sign-in", {
      form: { username: customer.email, password },
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
  for (let guess = 1; guess <= 5; guess++) {
    const response = await attempt(`Incorrecta#${guess}x`);
    expect(response.status(), `guess ${guess}`).toBe(400);
    expect(await response.text()).toContain("Correo o contraseña incorrectos.");
  }
  for (const password of ["Incorrecta#6x", customer.password]) {
    const refused = await attempt(password);
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Demasiados intentos.");
  }
  await guesser.dispose();
});
