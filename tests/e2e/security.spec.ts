import { expect, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { outboxCount } from "./support/auth";
import { cartWith, holderFormFields } from "./support/commerce";
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
  // Dot segments resolve to `//host` after a naive same-site check (the red-team finding).
  "/..//sitio-ajeno.example",
  "/.//sitio-ajeno.example",
  "/a/..//sitio-ajeno.example",
  "/%2e%2e//sitio-ajeno.example",
  "/.%2E//sitio-ajeno.example",
  "/..///sitio-ajeno.example/robar?x=1",
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
  expect(location!.startsWith("//"), location!).toBe(false);
  const target = new URL(location!, BASE_URL);
  expect(target.origin, location!).toBe(new URL(BASE_URL).origin);
}

const decodeAttribute = (value: string) =>
  value.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

test("redirectTo never leaves the site for a signed-in customer either", async ({ playwright }) => {
  const { browser } = await signedIn(playwright.request);
  try {
    for (const redirectTo of OFF_SITE) {
      const query = `redirectTo=${encodeURIComponent(redirectTo)}`;
      // Sign-in while signed in sends the customer on.
      const signIn = await browser.get(`/auth/sign-in?${query}`, { maxRedirects: 0 });
      expect(signIn.status(), redirectTo).toBe(303);
      staysOnSite(signIn.headers().location);
      // Verifying a contact that is already verified sends the customer on.
      const verify = await browser.get(`/auth/verify-user?${query}`, { maxRedirects: 0 });
      expect(verify.status(), redirectTo).toBe(303);
      staysOnSite(verify.headers().location);
      // The confirmation step's "skip" link.
      const confirm = await browser.get(`/auth/confirm-verify-user?attr=email&${query}`, {
        maxRedirects: 0,
      });
      expect(confirm.status(), redirectTo).toBe(200);
      const skip = /<a [^>]*href="([^"]*)"[^>]*>Omitir por ahora<\/a>/.exec(await confirm.text());
      expect(skip, redirectTo).not.toBeNull();
      staysOnSite(decodeAttribute(skip![1]));
    }
  } finally {
    await browser.dispose();
  }
});

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

/** The idempotency key of the form on a page. */
function formKey(html: string): string {
  const key = /name="idempotency_key" value="([^"]+)"/.exec(html)?.[1];
  expect(key).toBeTruthy();
  return key!;
}

function checkoutForm(email: string, fullName: string, key: string) {
  return {
    full_name: fullName,
    email,
    phone_number: "5512345678",
    street: "Calle Privada",
    exterior_number: "77",
    interior_number: "",
    neighborhood: "Colonia Discreta",
    postal_code: "06700",
    municipality: "Cuauhtémoc",
    state: "CMX",
    ...holderFormFields(),
    accept_terms: "on",
    idempotency_key: key,
  };
}

function portabilityForm(phone: string, email: string, key: string) {
  return {
    phone_number: phone,
    nip: "7391",
    full_name: "Titular Original",
    email,
    curp: "GOMA850312MDFRRN09",
    current_carrier: "telcel",
    accept_terms: "on",
    idempotency_key: key,
  };
}

/** Places an order from this browser; answers its confirmation address and key. */
async function placeOrder(browser: APIRequestContext, email: string, fullName: string) {
  await browser.post("/cart", { form: { intent: "add", id: "conecta-100" }, maxRedirects: 0 });
  const key = formKey(await (await browser.get("/checkout")).text());
  const placed = await browser.post("/checkout", {
    form: checkoutForm(email, fullName, key),
    maxRedirects: 0,
  });
  expect(placed.status()).toBe(303);
  const payment = await browser.get(placed.headers().location!);
  const confirmation = /href="([^"]*\/confirmation\?pedido=[^"]+)"/.exec(await payment.text());
  expect(confirmation).not.toBeNull();
  return { key, confirmation: decodeAttribute(confirmation![1]).replace(BASE_URL, "") };
}

function setCookieNames(response: { headersArray(): Array<{ name: string; value: string }> }) {
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => header.value);
}

test("sign-out ends every copy of the session and forgets this browser's orders", async ({
  playwright,
}) => {
  const { browser, customer } = await signedIn(playwright.request);
  const { confirmation } = await placeOrder(browser, customer.email, "Ana Copia Segura");
  expect((await browser.get(confirmation)).status()).toBe(200);
  // Someone saves the cookies before the customer signs out.
  const saved = cookieHeader(await cookiesOf(browser));

  const out = await browser.post("/auth/sign-out", { maxRedirects: 0 });
  expect(out.status()).toBe(303);
  const cleared = setCookieNames(out).filter((line) => line.includes("Max-Age=0"));
  expect(cleared.some((line) => line.startsWith("auth_session"))).toBe(true);
  expect(cleared.some((line) => line.startsWith("orders="))).toBe(true);
  // The next person at this browser cannot reopen the order.
  expect((await browser.get(confirmation, { maxRedirects: 0 })).status()).toBe(404);
  await browser.dispose();

  // The saved copy opens nothing any more.
  const account = await fetch(`${BASE_URL}/my-account`, {
    headers: { Cookie: saved },
    redirect: "manual",
  });
  expect(account.status).toBe(303);
  expect(account.headers.get("location")).toMatch(/^\/auth\/sign-in/);
  const home = await fetch(`${BASE_URL}/`, { headers: { Cookie: saved } });
  expect(await home.text()).not.toContain(customer.email);
  // Nor does the saved guest access to the order (a signed-in order's page needs the session).
  const order = await fetch(`${BASE_URL}${confirmation}`, {
    headers: { Cookie: saved },
    redirect: "manual",
  });
  expect(order.status).toBe(404);
  const topup = await fetch(`${BASE_URL}/my-account/recarga`, {
    method: "POST",
    headers: { Cookie: saved, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      phone_number: "5587654321",
      phone_number_confirm: "5587654321",
      amount: "100",
      idempotency_key: crypto.randomUUID(),
    }),
    redirect: "manual",
  });
  expect(topup.status).toBe(303);
  expect(topup.headers.get("location")).toMatch(/^\/auth\/sign-in/);
});

test("an idempotency key copied into another browser opens nothing there", async ({
  playwright,
}) => {
  const owner = await playwright.request.newContext({ baseURL: BASE_URL });
  const stranger = await playwright.request.newContext({ baseURL: BASE_URL });
  try {
    // Checkout: the owner's order, then the stranger sends the owner's key.
    const ownerEmail = `duena.${Date.now()}@ejemplo.mx`;
    const { key } = await placeOrder(owner, ownerEmail, "Dueña Del Pedido");
    await stranger.post("/cart", {
      form: { intent: "add", id: "conecta-200" },
      maxRedirects: 0,
    });
    await stranger.get("/checkout");
    const copied = await stranger.post("/checkout", {
      form: checkoutForm("extrano@ejemplo.mx", "Persona Extraña", key),
      maxRedirects: 0,
    });
    expect(copied.status()).toBe(409);
    const refusal = await copied.text();
    expect(refusal).toContain("Esta página de pago ya no es válida en este navegador.");
    for (const secret of [ownerEmail, "Dueña Del Pedido", "PED-"]) {
      expect(refusal).not.toContain(secret);
    }
    // The owner sending the same form again finds the same order.
    const again = await owner.post("/checkout", {
      form: checkoutForm(ownerEmail, "Dueña Del Pedido", key),
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);

    // Portability: the same rule for the request form.
    const phone = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const ownerKey = formKey(await (await owner.get("/portabilidad")).text());
    const submitted = await owner.post("/portabilidad", {
      form: portabilityForm(phone, ownerEmail, ownerKey),
      maxRedirects: 0,
    });
    expect(submitted.status()).toBe(303);
    const folio = /solicitud=(POR-[\d-]+)/.exec(submitted.headers().location!)![1];
    await stranger.get("/portabilidad");
    const replayed = await stranger.post("/portabilidad", {
      form: portabilityForm("5500000001", "extrano@ejemplo.mx", ownerKey),
      maxRedirects: 0,
    });
    expect(replayed.status()).toBe(409);
    const replayedBody = await replayed.text();
    expect(replayedBody).toContain("Este formulario ya no es válido en este navegador.");
    // (The lookup's example folio, POR-2026-000007, is in every page.)
    const spacedPhone = `${phone.slice(0, 2)} ${phone.slice(2, 6)} ${phone.slice(6)}`;
    for (const secret of [folio, ownerEmail, phone, spacedPhone]) {
      expect(replayedBody.replaceAll("POR-2026-000007", "")).not.toContain(secret);
    }
    // The owner's own second submission still lands on its request.
    const resent = await owner.post("/portabilidad", {
      form: portabilityForm(phone, ownerEmail, ownerKey),
      maxRedirects: 0,
    });
    expect(resent.status()).toBe(303);
    expect(resent.headers().location).toContain(folio);

    // A top-up without an account: the owner's cash voucher, then the stranger sends the
    // owner's key (to pay by card instead, which would void the voucher).
    const line = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const topupKey = formKey(await (await owner.get("/recarga")).text());
    const topupForm = (method: string, key: string) => ({
      phone_number: line,
      phone_number_confirm: line,
      amount: "100",
      payment_method: method,
      idempotency_key: key,
    });
    const voucher = await owner.post("/recarga", {
      form: topupForm("cash", topupKey),
      maxRedirects: 0,
    });
    expect(voucher.status()).toBe(303);
    const receipt = voucher.headers().location!;
    const reference = (html: string) =>
      /data-testid="payment-reference"[^>]*>([^<]+)</.exec(html)?.[1];
    const issued = reference(await (await owner.get(receipt)).text());
    expect(issued).toBeTruthy();
    await stranger.get("/recarga");
    const takeover = await stranger.post("/recarga", {
      form: topupForm("card", topupKey),
      maxRedirects: 0,
    });
    expect(takeover.status()).toBe(409);
    const takeoverBody = await takeover.text();
    expect(takeoverBody).toContain("Este formulario ya no es válido en este navegador.");
    expect(takeoverBody).not.toContain(receipt);
    // The voucher stands, and the owner's form sent again still finds its top-up.
    expect(reference(await (await owner.get(receipt)).text())).toBe(issued);
    const ownerAgain = await owner.post("/recarga", {
      form: topupForm("cash", topupKey),
      maxRedirects: 0,
    });
    expect(ownerAgain.headers().location).toBe(receipt);
  } finally {
    await owner.dispose();
    await stranger.dispose();
  }
});

test("pages showing personal data tell browsers and proxies not to keep them", async ({
  playwright,
}) => {
  const { browser, customer } = await signedIn(playwright.request);
  try {
    const { confirmation } = await placeOrder(browser, customer.email, "Ana Privada");
    // The order's first view empties the cart and redirects to itself; the pages below are the next.
    expect((await browser.get(confirmation)).status()).toBe(200);
    const phone = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const key = formKey(await (await browser.get("/portabilidad")).text());
    const submitted = await browser.post("/portabilidad", {
      form: portabilityForm(phone, customer.email, key),
      maxRedirects: 0,
    });
    for (const page of [
      "/my-account",
      "/my-account/recarga",
      confirmation,
      submitted.headers().location!,
      "/checkout",
      "/",
    ]) {
      await browser.post("/cart", { form: { intent: "add", id: "conecta-100" }, maxRedirects: 0 });
      const response = await browser.get(page, { maxRedirects: 0 });
      expect(response.status(), page).toBe(200);
      const cacheControl = response.headers()["cache-control"] ?? "";
      expect(cacheControl, page).toContain("no-store");
      expect(cacheControl, page).toContain("private");
    }
  } finally {
    await browser.dispose();
  }
  // A page rendered for nobody in particular is not marked private.
  const anonymous = await fetch(`${BASE_URL}/plans`);
  expect(anonymous.headers.get("cache-control") ?? "").not.toContain("private");
});

test("a password reset answers the same for any address, and sends one address five codes at most", async ({
  playwright,
}) => {
  const setup = await playwright.request.newContext({ baseURL: BASE_URL });
  const known = (await createCustomer(setup, "restablecer")).email;
  const unknown = `nadie.${Date.now()}@ejemplo.mx`;
  try {
    for (const email of [known, unknown]) {
      const browser = await playwright.request.newContext({ baseURL: BASE_URL });
      const ask = () =>
        browser.post("/auth/forgot-password", { form: { username: email }, maxRedirects: 0 });
      const first = await ask();
      expect(first.status(), email).toBe(303);
      expect(first.headers().location, email).toBe("/auth/confirm-reset-password");
      const page = await (await browser.get("/auth/confirm-reset-password")).text();
      const masked = `${email[0]}***${email.slice(email.indexOf("@"))}`;
      expect(page, email).toContain(`Si ${masked} tiene una cuenta, te enviamos un código.`);
      expect(page, email).not.toContain("No existe una cuenta");
      for (let request = 2; request <= 5; request++) expect((await ask()).status()).toBe(303);
      const refused = await ask();
      expect(refused.status(), email).toBe(429);
      expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
      expect(await refused.text()).toContain("Ya enviamos varios códigos a este correo.");
      await browser.dispose();
    }
    expect(await outboxCount(setup, known, "ForgotPassword")).toBe(5);
  } finally {
    await setup.dispose();
  }
});

test("a cross-site check believes Sec-Fetch-Site and compares the scheme", async () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${BASE_URL}/cart`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: "intent=add&id=conecta-100",
      redirect: "manual",
    });
  const secure = BASE_URL.replace(/^http:/, "https:");
  const refusedCases: Record<string, Record<string, string>> = {
    crossSiteWithOwnOrigin: { Origin: BASE_URL, "Sec-Fetch-Site": "cross-site" },
    sameSiteWithoutOrigin: { "Sec-Fetch-Site": "same-site" },
    otherScheme: { Origin: secure },
  };
  for (const [name, headers] of Object.entries(refusedCases)) {
    const refused = await post(headers);
    expect(refused.status, name).toBe(403);
    expect(await refused.text(), name).toContain("origen no permitido");
  }
  expect((await post({ Origin: BASE_URL, "Sec-Fetch-Site": "same-origin" })).status).toBe(303);
  // An old browser sends neither header.
  expect((await post({})).status).toBe(303);
});

test("a malformed multipart form is a Spanish 400 on every form route", async () => {
  for (const route of ["/cart", "/checkout", "/auth/sign-in", "/portabilidad"]) {
    for (const contentType of ["multipart/form-data; boundary=----limite", "multipart/form-data"]) {
      const response = await fetch(`${BASE_URL}${route}`, {
        method: "POST",
        headers: { "Content-Type": contentType },
        body: '------otro-limite\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd',
        redirect: "manual",
      });
      expect(response.status, `${route} ${contentType}`).toBe(400);
      expect(await response.text()).toContain("el formulario llegó incompleto o dañado");
    }
  }
});

test("form pages keep to their own content security policy: nothing asks the browser for eval", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const violations = () =>
    page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  await cartWith(page, "Conecta 100");
  const submitButtons: Array<[string, string | RegExp]> = [
    ["/recarga", "Continuar al pago"],
    ["/checkout", /^Continuar al pago de/],
    ["/auth/sign-in", "Iniciar sesión"],
    ["/portabilidad", "Enviar solicitud"],
    ["/pedido", "Enviarme el enlace"],
    ["/saldo", "Enviar código por SMS"],
    ["/registro-de-linea", "Enviar código por SMS"],
  ];
  for (const [pathname, button] of submitButtons) {
    await page.goto(pathname);
    // Sent empty: the browser's own validation runs the form's schema.
    await page.getByRole("button", { name: button }).first().click();
    await expect(page.getByTestId("field-error").first(), pathname).not.toBeEmpty();
    expect(await violations(), pathname).toEqual([]);
  }
});
