import { expect, test, type Page } from "@playwright/test";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { createAccount, signIn, uniqueEmail } from "./support/auth";
import { addPlan, fillCheckout, submitCheckout } from "./support/commerce";

// Checks that need a server of their own: its secrets, its limits, its mode, its logs.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");
test.describe.configure({ mode: "serial" });

const SECRET_A = "rotation-secret-a-0123456789-abcdefghijklmnopqrstuv";
const SECRET_B = "rotation-secret-b-0123456789-abcdefghijklmnopqrstuv";

async function running(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const server = startServer({ NODE_ENV: "test", PORT: String(port), ...env });
  await waitForHealth(`http://localhost:${port}`, server);
  return server;
}

const cartCount = (html: string) => /data-testid="cart-count"[^>]*>(\d+)</.exec(html)?.[1];

test("an old secret still listed keeps the cart; once removed, the cart reads as empty", async () => {
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  let server = await running({ SESSION_SECRET: SECRET_A }, port);
  const added = await fetch(`${base}/cart`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=add&id=conecta-200",
    redirect: "manual",
  });
  const cart = /(?:^|, )(cart=[^;]+)/.exec(added.headers.get("set-cookie") ?? "")?.[1];
  expect(cart).toBeTruthy();
  await stopServer(server);

  const dataDir = server.dataDir;
  for (const [secrets, expected] of [
    [`${SECRET_B},${SECRET_A}`, "1"],
    [SECRET_B, "0"],
  ] as const) {
    server = await running({ SESSION_SECRET: secrets, DATA_DIR: dataDir }, port);
    const page = await fetch(`${base}/cart`, { headers: { Cookie: cart! } });
    expect(page.status, secrets).toBe(200);
    expect(cartCount(await page.text()), secrets).toBe(expected);
    await stopServer(server);
  }
});

test("per address: the limit answers a Spanish 429 whatever account is tried", async () => {
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = await running({ AUTH_RATE_LIMIT_PER_IP: "3" }, port);
  try {
    const attempt = (email: string) =>
      fetch(`${base}/auth/sign-in`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: email, password: "Incorrecta#1x" }),
        redirect: "manual",
      });
    for (let guess = 1; guess <= 3; guess++) {
      expect((await attempt(uniqueEmail(`ip${guess}`))).status).toBe(400);
    }
    const refused = await attempt(uniqueEmail("ip4"));
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Demasiados intentos.");
  } finally {
    await stopServer(server);
  }
});

test("in production every cookie is __Host-, Secure, HttpOnly and SameSite", async () => {
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = await running(
    { NODE_ENV: "production", SESSION_SECRET: SECRET_A, LOG_LEVEL: "warn" },
    port,
  );
  try {
    const setCookies: string[] = [];
    const post = async (path: string, body: Record<string, string>) => {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
        body: new URLSearchParams(body),
        redirect: "manual",
      });
      expect(response.status, path).toBe(303);
      setCookies.push(...response.headers.getSetCookie());
    };
    await post("/cart", { intent: "add", id: "conecta-100" });
    await post("/auth/sign-up", {
      username: uniqueEmail("produccion"),
      password: "Conecta-2025x",
      confirm_password: "Conecta-2025x",
    });
    const names = setCookies.map((cookie) => cookie.slice(0, cookie.indexOf("=")));
    expect(names).toEqual(expect.arrayContaining(["__Host-cart", "__Host-auth_pending"]));
    for (const cookie of setCookies.filter((line) => !line.startsWith("i18n_redirected="))) {
      expect(cookie).toMatch(/^__Host-/);
      expect(cookie).toContain("; Secure");
      expect(cookie).toContain("; HttpOnly");
      expect(cookie).toMatch(/; SameSite=(Lax|Strict)/);
      expect(cookie).toContain("; Path=/");
      expect(cookie).not.toMatch(/; Domain=/i);
    }
  } finally {
    await stopServer(server);
  }
});

/** Every string a JSON log line holds, at any depth (numbers such as durations are left out). */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)]);
  }
  return [];
}

async function payOnSandbox(page: Page, card: string, cvc: string) {
  await expect(page).toHaveURL(/\/sandbox\/pago\//);
  await page.getByLabel("Número de tarjeta").fill(card);
  await page.getByLabel("Vencimiento (MM/AA)").fill("12/30");
  await page.getByLabel("Código de seguridad (CVC)").fill(cvc);
  await page.getByLabel("Nombre como aparece en la tarjeta").fill("Ana Lopez");
  await page.getByRole("button", { name: /^Pagar / }).click();
}

test("no log line holds a password, a code, a token, a NIP, a card number or a CVC", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = await running({ LOG_LEVEL: "trace" }, port);
  const context = await browser.newContext({ baseURL: base });
  const request = await playwright.request.newContext({ baseURL: base });
  const page = await context.newPage();
  const secrets = {
    password: "Conecta-2025x",
    card: "4242424242424242",
    cvc: "864",
    nip: "7391",
  };
  try {
    const email = uniqueEmail("bitacora");
    await createAccount(page, request, email);
    await signIn(page, email, secrets.password);
    await expect(page).not.toHaveURL(/\/auth\/sign-in/);

    await page.goto("/plans");
    await addPlan(page, "Conecta 100", 1);
    await page.goto("/checkout");
    await fillCheckout(page, email);
    await submitCheckout(page);
    await payOnSandbox(page, "4242 4242 4242 4242", secrets.cvc);
    await expect(page).toHaveURL(/\/confirmation\?pedido=/);

    await page.goto("/my-account/recarga");
    await page.getByLabel("Número de celular (10 dígitos)").fill("5587654321");
    await page.getByLabel("Vuelve a escribir el número").fill("5587654321");
    await page.getByRole("radio", { name: /^\$100/ }).check();
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await payOnSandbox(page, secrets.card, secrets.cvc);
    await expect(page).toHaveURL(/\/my-account\/recarga\/REC-/);

    await page.goto("/portabilidad");
    const form = page.getByRole("region", { name: "Solicita tu portabilidad" });
    await form.getByLabel("Número a portar (10 dígitos)").fill("5512340099");
    await form.getByLabel("NIP de portabilidad (4 dígitos)").fill(secrets.nip);
    await form.getByLabel("Nombre completo del titular").fill("Ana Gómez Martínez");
    await form.getByLabel("Correo electrónico").fill(email);
    await form.getByLabel("CURP").fill("GOMA850312MDFRRN09");
    await form.getByLabel("Compañía actual").selectOption({ label: "Telcel" });
    await form.getByRole("button", { name: "Enviar solicitud" }).click();
    await expect(page.getByText(/POR-/).first()).toBeVisible();

    // A wrong password and a wrong code are logged as failures, never with what was typed.
    await page.context().clearCookies();
    await signIn(page, email, "Equivocada#99z");
    await expect(page.getByRole("alert").first()).toBeVisible();

    const cookies = (await context.cookies()).map((cookie) => cookie.value);
    const sessionValues = (await request.storageState()).cookies.map((cookie) => cookie.value);
    const lines = server.output.join("").split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(20);
    const forbidden = [
      secrets.password,
      "Equivocada#99z",
      secrets.card,
      "4242 4242 4242 4242",
      ...[...cookies, ...sessionValues].filter((value) => value.length > 20),
    ];
    for (const line of lines) {
      let strings: string[];
      try {
        strings = stringsOf(JSON.parse(line));
      } catch {
        strings = [line];
      }
      for (const text of strings) {
        for (const secret of forbidden) expect(text, line).not.toContain(secret);
        expect(text, line).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}/);
        // Short secrets only count as whole values: a NIP or CVC is never a log field.
        expect([secrets.cvc, secrets.nip], line).not.toContain(text);
        expect(text, line).not.toMatch(
          new RegExp(`\\b(nip|cvc|cvv)\\b\\W*(${secrets.nip}|${secrets.cvc})`, "i"),
        );
      }
    }
  } finally {
    await context.close();
    await request.dispose();
    await stopServer(server);
  }
});
