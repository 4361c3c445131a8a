import { readFileSync } from "node:fs";
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { CookieJar, rawRequest } from "../support/raw-http";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { createAccount, latestCode, signIn, uniqueEmail } from "./support/auth";
import {
  addPlan,
  fillCheckout,
  holderFormFields,
  payWithCard,
  submitCheckout,
  TOPUP_RECEIPT_URL,
} from "./support/commerce";

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

test("top-ups per address: a Spanish 429 past the limit, whatever number; the same form sent again is free", async () => {
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = await running({ TOPUP_RATE_LIMIT_PER_IP: "3" }, port);
  try {
    // One browser: its form keys are signed with the secret its first visit was given.
    const jar = new CookieJar();
    const newKey = async () => {
      const page = await rawRequest(port, { path: "/recarga", headers: { Cookie: jar.header } });
      jar.keep(page.headers);
      return /name="idempotency_key" value="([^"]+)"/.exec(page.body)![1]!;
    };
    const topUp = (line: string, key: string) =>
      fetch(`${base}/recarga`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header },
        body: new URLSearchParams({
          phone_number: line,
          phone_number_confirm: line,
          amount: "50",
          payment_method: "card",
          idempotency_key: key,
        }),
        redirect: "manual",
      });
    const firstKey = await newKey();
    expect((await topUp("5510000001", firstKey)).status).toBe(303);
    for (const line of ["5510000002", "5510000003"]) {
      expect((await topUp(line, await newKey())).status).toBe(303);
    }
    const refused = await topUp("5510000004", await newKey());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Por seguridad limitamos las recargas seguidas");
    // A double click after the limit finds the top-up it already created.
    expect((await topUp("5510000001", firstKey)).status).toBe(303);
  } finally {
    await stopServer(server);
  }
});

test("in production every cookie is __Host-, Secure, HttpOnly and SameSite", async () => {
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = await running(
    {
      NODE_ENV: "production",
      SESSION_SECRET: SECRET_A,
      LOG_LEVEL: "warn",
      ...productionTestEnvironment(base),
    },
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

test("no log line holds a password, a code, a token, a NIP, a card number or a CVC", async ({
  browser,
  playwright,
}) => {
  // Every journey on a server of its own logging at trace: over two minutes on a loaded machine.
  test.setTimeout(180_000);
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
    const signUpCode = await latestCode(request, email, "SignUp");
    await signIn(page, email, secrets.password);
    await expect(page).not.toHaveURL(/\/auth\/sign-in/);

    await page.goto("/plans");
    await addPlan(page, "Conecta 100", 1);
    await page.goto("/checkout");
    await fillCheckout(page, email);
    await submitCheckout(page);
    await payWithCard(page, "4242 4242 4242 4242", { cvc: secrets.cvc });

    await page.goto("/my-account/recarga");
    await page.getByLabel("Número de celular (10 dígitos)").fill("5587654321");
    await page.getByLabel("Vuelve a escribir el número").fill("5587654321");
    await page.getByRole("radio", { name: /^\$100/ }).check();
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await payWithCard(page, secrets.card, { cvc: secrets.cvc, landsOn: TOPUP_RECEIPT_URL });

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
    // A reset code as well: the emulator "sends" it, and must not log it.
    await page.goto("/auth/forgot-password");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByRole("button", { name: "Enviar código" }).click();
    const resetCode = await latestCode(request, email, "ForgotPassword");

    const forbidden = [
      secrets.password,
      "Equivocada#99z",
      secrets.card,
      "4242 4242 4242 4242",
      // The customer's e-mail address, whoever logs it (the identity emulator too).
      email,
      email.split("@")[0],
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
        // Short secrets only count as whole values: a NIP, CVC or code is never a log field.
        expect([secrets.cvc, secrets.nip, signUpCode, resetCode], line).not.toContain(text);
        expect(text, line).not.toMatch(new RegExp(`\\b(${signUpCode}|${resetCode})\\b`));
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

test("the payment provider is told this site's configured address, never the host a client names", async () => {
  // Stands for the host an attacker names in X-Forwarded-Host (another Host is redirected first).
  const trapped: string[] = [];
  const trap = createServer((request, response) => {
    trapped.push(`${request.method} ${request.url}`);
    response.end("gracias");
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  const trapHost = `127.0.0.1:${(trap.address() as AddressInfo).port}`;
  const port = freePort(test.info().workerIndex);
  // Production: outside it, a Host that is not one of the site's names is refused outright.
  // No proxy is trusted, so X-Forwarded-Host is the client's to write.
  const server = await running(
    {
      NODE_ENV: "production",
      SESSION_SECRET: SECRET_A,
      LOG_LEVEL: "warn",
      ...productionTestEnvironment(`http://localhost:${port}`),
    },
    port,
  );
  const jar = new CookieJar();
  const send = async (options: Parameters<typeof rawRequest>[1]) => {
    const response = await rawRequest(port, {
      ...options,
      headers: {
        Host: `localhost:${port}`,
        "X-Forwarded-Host": trapHost,
        Cookie: jar.header,
        ...options.headers,
      },
    });
    jar.keep(response.headers);
    return response;
  };
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  try {
    await send({ method: "POST", path: "/cart", headers: form, body: "intent=add&id=conecta-100" });
    const checkout = await send({ path: "/checkout" });
    const key = /name="idempotency_key" value="([^"]+)"/.exec(checkout.body)![1];
    const placed = await send({
      method: "POST",
      path: "/checkout",
      headers: form,
      body: new URLSearchParams({
        full_name: "Ana López",
        email: "ana@ejemplo.mx",
        phone_number: "5512345678",
        street: "Insurgentes",
        exterior_number: "1",
        neighborhood: "Roma",
        postal_code: "06700",
        municipality: "Cuauhtémoc",
        state: "CMX",
        ...holderFormFields(),
        accept_terms: "on",
        idempotency_key: key,
      }).toString(),
    });
    expect(placed.status).toBe(303);
    const paymentPage = placed.headers.location!;
    expect(paymentPage).toMatch(/^\/sandbox\/pago\/chk_/);
    const page = await send({ path: paymentPage });
    expect(page.body).toContain(`href="http://localhost:${port}/confirmation?pedido=`);
    expect(page.body).not.toContain(trapHost);
    const paid = await send({
      method: "POST",
      path: paymentPage,
      headers: form,
      body: new URLSearchParams({
        card_number: "4242424242424242",
        card_expiry: "12/30",
        card_cvc: "123",
        cardholder_name: "Ana Lopez",
      }).toString(),
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toMatch(
      new RegExp(`^http://localhost:${port}/confirmation\\?pedido=`),
    );
    // The signed notification reached this server, not the client's host.
    const returned = new URL(paid.headers.location!);
    let confirmation = await send({ path: `${returned.pathname}${returned.search}` });
    // The first view of a paid order empties the cart and shows the page again.
    if (confirmation.status === 302)
      confirmation = await send({ path: confirmation.headers.location! });
    expect(confirmation.body).toContain("Pagado");
    expect(trapped).toEqual([]);
  } finally {
    await stopServer(server);
    trap.close();
  }
});

test("in production another name of the site leads to the public one before any cookie is set", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running(
    {
      NODE_ENV: "production",
      SESSION_SECRET: SECRET_A,
      LOG_LEVEL: "warn",
      ...productionTestEnvironment(`http://localhost:${port}`),
    },
    port,
  );
  const otherName = { Host: `127.0.0.1:${port}` };
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  try {
    const page = await rawRequest(port, {
      path: "/confirmation?pedido=PED-2026-000001",
      headers: otherName,
    });
    expect(page.status).toBe(301);
    expect(page.headers.location).toBe(
      `http://localhost:${port}/confirmation?pedido=PED-2026-000001`,
    );
    expect(page.headers["set-cookie"]).toBeUndefined();
    const cart = await rawRequest(port, {
      method: "POST",
      path: "/cart",
      headers: { ...otherName, ...form },
      body: "intent=add&id=conecta-100",
    });
    expect(cart.status).toBe(421);
    expect(cart.body).toContain("no corresponde a este servidor");
    expect(cart.headers["set-cookie"]).toBeUndefined();
    // A load balancer's health check asks by address.
    expect((await rawRequest(port, { path: "/healthz", headers: otherName })).status).toBe(200);
    const own = await rawRequest(port, { path: "/plans", headers: { Host: `localhost:${port}` } });
    expect(own.status).toBe(200);
  } finally {
    await stopServer(server);
  }
});

/** The resident memory of a process, in bytes (Linux). */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

test("a body sent without a declared length is refused at the limit, not read to the end", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({}, port);
  try {
    const before = residentBytes(server.child.pid!);
    const limit = 200 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let answeredAfter = -1;
    let status = 0;
    let closed = false;
    const request = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/payments/webhook/sandbox",
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
    });
    request.on("response", (response) => {
      answeredAfter = sent;
      status = response.statusCode ?? 0;
      response.resume();
    });
    request.on("error", () => undefined);
    request.on("close", () => {
      closed = true;
    });
    request.write("{");
    while (sent < limit && answeredAfter < 0 && !closed) {
      const flushed = request.write(chunk);
      sent += chunk.length;
      if (!flushed) {
        // `once` rejects when the server closes the connection under us: that ends the loop too.
        await Promise.race([
          once(request, "drain").catch(() => undefined),
          once(request, "close").catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, 2_000)),
        ]);
      }
    }
    await expect.poll(() => status, { timeout: 10_000 }).toBe(413);
    request.destroy();
    // Answered long before the client finished: the server stopped reading at 64 KB.
    expect(answeredAfter).toBeGreaterThanOrEqual(0);
    expect(answeredAfter).toBeLessThan(32 * 1024 * 1024);
    expect(residentBytes(server.child.pid!) - before).toBeLessThan(64 * 1024 * 1024);
    // And the server goes on answering.
    expect((await fetch(`http://localhost:${port}/healthz`)).status).toBe(200);
  } finally {
    await stopServer(server);
  }
});

test("behind one proxy, the address the proxy appended is the one limited, whatever the client writes first", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({ TRUST_PROXY: "1", AUTH_RATE_LIMIT_PER_IP: "3" }, port);
  try {
    const attempt = (index: number) =>
      fetch(`http://localhost:${port}/auth/sign-in`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          // The client's own entry changes each time; the proxy appended the real address.
          "X-Forwarded-For": `198.51.100.${index}, 203.0.113.9`,
        },
        body: new URLSearchParams({
          username: uniqueEmail(`proxy${index}`),
          password: "Incorrecta#1x",
        }),
        redirect: "manual",
      });
    for (let index = 1; index <= 3; index++) expect((await attempt(index)).status).toBe(400);
    const refused = await attempt(4);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Demasiados intentos.");
  } finally {
    await stopServer(server);
  }
});

test("a malformed multipart form is refused with an info line in the log, never an error", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({ LOG_LEVEL: "info" }, port);
  try {
    const response = await fetch(`http://localhost:${port}/checkout`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=roto" },
      body: '--otro\r\nContent-Disposition: form-data; name="x"\r\n\r\ny',
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    const entries = server.output
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.find((entry) => entry.msg === "malformed form refused")?.level).toBe(30);
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
  } finally {
    await stopServer(server);
  }
});

test("outside production a page on another name that resolves here (DNS rebinding) is refused", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({}, port);
  try {
    const rebound = "rebind.sitio-ajeno.example";
    const outbox = await rawRequest(port, {
      path: "/dev/outbox",
      headers: { Host: `${rebound}:${port}` },
    });
    expect(outbox.status).toBe(421);
    expect(outbox.body).toContain("esta dirección no corresponde");
    const reset = await rawRequest(port, {
      method: "POST",
      path: "/auth/forgot-password",
      headers: {
        Host: `${rebound}:${port}`,
        Origin: `http://${rebound}:${port}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "username=alguien%40ejemplo.mx",
    });
    expect(reset.status).toBe(421);
    // The site's own names still work.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect(
        (await rawRequest(port, { path: "/dev/outbox", headers: { Host: host } })).status,
      ).toBe(200);
    }
  } finally {
    await stopServer(server);
  }
});

test("a client that hangs up while sending a form leaves no error and no stack trace", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({ LOG_LEVEL: "info" }, port);
  try {
    const request = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/payments/webhook/sandbox",
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
    });
    request.on("error", () => undefined);
    request.write('{"payment_id":');
    await new Promise((resolve) => setTimeout(resolve, 300));
    request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`http://localhost:${port}/healthz`)).status).toBe(200);
    const output = server.output.join("");
    expect(output).not.toMatch(/\n\s+at /);
    const entries = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(entries.some((entry) => entry.msg === "request body cut off by the client")).toBe(true);
  } finally {
    await stopServer(server);
  }
});

test("strangers cannot lock a customer out: of a line's top-ups, or of an order's link", async () => {
  const port = freePort(test.info().workerIndex);
  // Behind one proxy, so that the test can be two clients; the per-number top-up limit at its
  // default (5 an hour).
  const server = await running({ TRUST_PROXY: "1" }, port);
  const client = (address: string) => {
    const jar = new CookieJar();
    return async (options: Parameters<typeof rawRequest>[1]) => {
      const response = await rawRequest(port, {
        ...options,
        headers: {
          "X-Forwarded-For": address,
          Cookie: jar.header,
          ...(options.body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
          ...options.headers,
        },
      });
      jar.keep(response.headers);
      return response;
    };
  };
  const formKey = (html: string) => /name="idempotency_key" value="([^"]+)"/.exec(html)![1]!;
  const attacker = client("203.0.113.66");
  const owner = client("198.51.100.23");
  try {
    // Top-ups: unpaid ones cost nothing, so they count per number and per client.
    const line = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const topUp = async (send: ReturnType<typeof client>) => {
      const key = formKey((await send({ path: "/recarga" })).body);
      return send({
        method: "POST",
        path: "/recarga",
        body: new URLSearchParams({
          phone_number: line,
          phone_number_confirm: line,
          amount: "20",
          payment_method: "cash",
          idempotency_key: key,
        }).toString(),
      });
    };
    for (let attempt = 1; attempt <= 5; attempt++) expect((await topUp(attacker)).status).toBe(303);
    expect((await topUp(attacker)).status).toBe(429);
    expect((await topUp(owner)).status).toBe(303);

    // An order's lookups: wrong e-mails from one client refuse that client only; the customer
    // still gets the link.
    const email = uniqueEmail("bloqueo");
    await owner({ method: "POST", path: "/cart", body: "intent=add&id=conecta-100" });
    const placed = await owner({
      method: "POST",
      path: "/checkout",
      body: new URLSearchParams({
        full_name: "Ana López",
        email,
        phone_number: "5512345678",
        street: "Insurgentes",
        exterior_number: "1",
        neighborhood: "Roma",
        postal_code: "06700",
        municipality: "Cuauhtémoc",
        state: "CMX",
        payment_method: "cash",
        ...holderFormFields(),
        accept_terms: "on",
        idempotency_key: formKey((await owner({ path: "/checkout" })).body),
      }).toString(),
    });
    expect(placed.status).toBe(303);
    // The order's first view empties the cart and shows the same address again.
    const firstView = await owner({ path: placed.headers.location! });
    expect(firstView.status).toBe(302);
    const confirmation = await owner({ path: firstView.headers.location! });
    const folio = /data-testid="order-folio"[^>]*>([^<]+)</.exec(confirmation.body)![1]!;
    const lookUp = (send: ReturnType<typeof client>, correo: string) =>
      send({
        method: "POST",
        path: "/pedido",
        body: new URLSearchParams({ folio, correo }).toString(),
      });
    const answers = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      answers.push((await lookUp(attacker, `adivina${attempt}@ejemplo.mx`)).status);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await lookUp(owner, email)).status).toBe(200);
    await expect
      .poll(async () => (await owner({ path: `/dev/outbox?to=${encodeURIComponent(email)}` })).body)
      .toContain(`Tu enlace para ver el pedido ${folio}`);
  } finally {
    await stopServer(server);
  }
});

test("behind one proxy, IPv6 clients rotating inside one /64 share one quota; mapped IPv4 counts as IPv4", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({ TRUST_PROXY: "1", AUTH_RATE_LIMIT_PER_IP: "3" }, port);
  try {
    const attempt = (clientAddress: string) =>
      fetch(`http://localhost:${port}/auth/sign-in`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          // The proxy appended the address it saw: each time another one of the client's /64.
          "X-Forwarded-For": clientAddress,
        },
        body: new URLSearchParams({
          username: uniqueEmail("rotacion"),
          password: "Incorrecta#1x",
        }),
        redirect: "manual",
      });
    // One network, written in every form an address can take.
    for (const address of ["2001:db8:1:2::1", "2001:DB8:1:2:0:0:0:2", "2001:0db8:0001:0002::3"]) {
      expect((await attempt(address)).status, address).toBe(400);
    }
    const refused = await attempt("2001:db8:1:2:ffff:ffff:ffff:fffe");
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Demasiados intentos.");
    // The next /64 is another customer's.
    expect((await attempt("2001:db8:1:3::1")).status).toBe(400);

    for (const address of ["198.51.100.7", "::ffff:198.51.100.7", "::FFFF:c633:6407"]) {
      expect((await attempt(address)).status, address).toBe(400);
    }
    expect((await attempt("198.51.100.7")).status).toBe(429);
  } finally {
    await stopServer(server);
  }
});

/** The JSON lines a spawned server wrote. */
function logEntries(server: ServerProcess) {
  return server.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string; status?: number });
}

const spanishErrors = (
  JSON.parse(readFileSync("public/locales/es/common.json", "utf8")) as {
    errors: Record<string, string>;
  }
).errors;

test("an address with a broken % escape is a Spanish 400 with an info line, never a logged error", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({ LOG_LEVEL: "info" }, port);
  try {
    for (const path of ["/%", "/auth/oauth/%ff", "/plans/%E0%A4%A", "/help-center%", "/%zz.js"]) {
      for (const method of ["GET", "POST"]) {
        const response = await rawRequest(port, {
          method,
          path,
          headers: {
            Host: `localhost:${port}`,
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: method === "POST" ? "a=1" : undefined,
        });
        expect(response.status, `${method} ${path}`).toBe(400);
        expect(response.body, `${method} ${path}`).toBe(spanishErrors.badRequest);
      }
    }
    // A log line is written after its answer is sent: the last may arrive a moment later.
    const refusals = () =>
      logEntries(server).filter((entry) => entry.msg === "malformed address refused");
    await expect.poll(() => refusals().length).toBe(10);
    const output = server.output.join("");
    expect(output).not.toMatch(/\n\s+at /);
    expect(logEntries(server).filter((entry) => entry.level >= 50)).toEqual([]);
    expect(refusals().map((entry) => entry.level)).toEqual(Array(10).fill(30));
  } finally {
    await stopServer(server);
  }
});

test("a form whose Host or X-Forwarded-Host differs from its Origin is a Spanish 400 with an info line, never a logged error", async () => {
  const port = freePort(test.info().workerIndex);
  const server = await running({ LOG_LEVEL: "info" }, port);
  const origin = `http://localhost:${port}`;
  const form = { "Content-Type": "application/x-www-form-urlencoded", Origin: origin };
  try {
    const mismatches: Array<Record<string, string>> = [
      // Both are this site's names: the Origin is allowed, the Host is served, they differ.
      { Host: `127.0.0.1:${port}` },
      { Host: `localhost:${port}`, "X-Forwarded-Host": "otro-sitio.example" },
      { Host: `localhost:${port}`, "X-Forwarded-Host": `127.0.0.1:${port}, localhost:${port}` },
    ];
    for (const headers of mismatches) {
      for (const path of ["/cart", "/auth/sign-in", "/auth/sign-in.data"]) {
        const response = await rawRequest(port, {
          method: "POST",
          path,
          headers: { ...form, ...headers },
          body: "intent=add&id=conecta-100&username=a%40b.mx&password=x",
        });
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(400);
        expect(response.body).toBe(spanishErrors.hostMismatch);
      }
    }
    // The same form with matching names goes through.
    const added = await rawRequest(port, {
      method: "POST",
      path: "/cart",
      headers: { ...form, Host: `localhost:${port}` },
      body: "intent=add&id=conecta-100",
    });
    expect(added.status).toBe(303);
    expect(server.output.join("")).not.toMatch(/\n\s+at /);
    const entries = logEntries(server);
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(
      entries.filter((entry) => entry.msg === "host and origin differ: form refused"),
    ).toHaveLength(9);
    expect(
      entries.find((entry) => entry.msg === "host and origin differ: form refused")?.level,
    ).toBe(30);
  } finally {
    await stopServer(server);
  }
});
