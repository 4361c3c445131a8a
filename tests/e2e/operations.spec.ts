import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { createCustomer } from "./support/customers";

// Operator-facing behaviour of the server process itself; no browser involved, so one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");

/** What opens /metrics and /readyz's detail on the production servers started here. */
const METRICS_TOKEN = "operations-metrics-token-0123456789";

/** A production server on the embedded test doubles, as a staging operator would run one. */
function startProductionTestEnvironment(port: number) {
  return startServer({
    NODE_ENV: "production",
    PORT: String(port),
    SESSION_SECRET: "operations-test-secret-0123456789-abcdefghij",
    METRICS_TOKEN,
    ...productionTestEnvironment(`http://localhost:${port}`),
  });
}

/** A port of this worker's own (server-process.ts keeps workers apart). */
const nextPort = () => freePort(test.info().workerIndex);

test("a bad setting stops the start with one line naming the variable", async () => {
  const { output, exited } = startServer({ PORT: "abc" });
  expect(await exited).toBe(1);
  const lines = output.join("").trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Invalid configuration: PORT:/);
});

test("TRUST_PROXY trusting every address, or malformed, stops the start with one line and no stack", async () => {
  for (const [value, expected] of [
    ["0.0.0.0/0", /^Invalid configuration: TRUST_PROXY: .*every IPv4 address/],
    ["0.0.0.0/1,128.0.0.0/1", /^Invalid configuration: TRUST_PROXY: .*every IPv4 address/],
    ["::/1, 8000::/1", /^Invalid configuration: TRUST_PROXY: .*every IPv6 address/],
    ["10.0.0.1/", /^Invalid configuration: TRUST_PROXY: "10.0.0.1\/" is neither/],
  ] as const) {
    const server = startServer({ TRUST_PROXY: value, PORT: String(nextPort()) });
    // A value that is wrongly accepted leaves a server running: stopped here, and the test fails.
    const code = await Promise.race([
      server.exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 15_000)),
    ]);
    if (code === "still running") await stopServer(server);
    expect(code, value).toBe(1);
    const lines = server.output.join("").trim().split("\n");
    expect(lines, value).toHaveLength(1);
    expect(lines[0], value).toMatch(expected);
  }
});

test("production refuses to start without SESSION_SECRET", async () => {
  const { output, exited } = startServer({ NODE_ENV: "production", PORT: String(nextPort()) });
  expect(await exited).toBe(1);
  expect(output.join("")).toMatch(/^Invalid configuration: SESSION_SECRET:/);
});

test("production sends HSTS and secure headers, logs requests as JSON without query strings, and stops cleanly on SIGTERM", async () => {
  const port = nextPort();
  const baseUrl = `http://localhost:${port}`;
  const server = startProductionTestEnvironment(port);
  try {
    await waitForHealth(baseUrl, server);
    const response = await fetch(`${baseUrl}/plans?filtro=secreto`);
    expect(response.status).toBe(200);
    const headers = response.headers;
    expect(headers.get("strict-transport-security")).toMatch(/max-age=31536000/);
    const csp = headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("set-cookie")).toContain("Secure");

    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    const cached = await fetch(`${baseUrl}${asset}`);
    expect(cached.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const locale = await fetch(`${baseUrl}/locales/es/common.json`);
    expect(locale.headers.get("cache-control")).toBe("public, max-age=86400");

    const crossSite = await fetch(`${baseUrl}/plans`, {
      method: "POST",
      headers: { Origin: "https://sitio-ajeno.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain("origen no permitido");

    const logLines = server.output
      .join("")
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'));
    const planRequest = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.path === "/plans");
    expect(planRequest).toMatchObject({ method: "GET", path: "/plans", status: 200 });
    expect(typeof planRequest.durationMs).toBe("number");
    expect(planRequest.requestId).toBeTruthy();
    expect(server.output.join("")).not.toContain("secreto");
  } finally {
    server.child.kill("SIGTERM");
  }
  expect(await server.exited).toBe(0);
  expect(server.output.join("")).toContain('"msg":"stopped"');
});

test("production refuses to start on the payment sandbox or the identity emulator unless told, in one line naming what is missing", async () => {
  const { output, exited } = startServer({
    NODE_ENV: "production",
    PORT: String(nextPort()),
    SESSION_SECRET: "operations-test-secret-0123456789-abcdefghij",
  });
  expect(await exited).toBe(1);
  const lines = output.join("").trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Refusing to start in production without /);
  for (const named of ["COGNITO_USER_POOL_ID", "ALLOW_EMBEDDED_IDENTITY=true"]) {
    expect(lines[0]).toContain(named);
  }
  for (const named of [
    "PAYMENT_PROVIDER",
    "ALLOW_SANDBOX_PAYMENTS=true",
    "ESIM_PROVIDER=es2plus",
    "ALLOW_SANDBOX_ESIM=true",
    "SMTP_URL",
    "ALLOW_CAPTURED_MAIL=true",
    "BSS_PROVIDER=tmf",
    "ALLOW_SIMULATED_BSS=true",
    "SMS_PROVIDER=smpp",
    "ALLOW_CAPTURED_SMS=true",
    "ID_VALIDATION_PROVIDER=http",
    "ALLOW_SANDBOX_ID_VALIDATION=true",
    "INVOICE_PROVIDER=facturapi",
    "ALLOW_SANDBOX_INVOICES=true",
    "PUBLIC_BASE_URL",
  ]) {
    expect(lines[0]).toContain(named);
  }
});

test("a production test environment says so on every page and in /readyz", async ({ page }) => {
  const port = nextPort();
  const baseUrl = `http://localhost:${port}`;
  const server = startProductionTestEnvironment(port);
  try {
    await waitForHealth(baseUrl, server);
    const ready = await (
      await fetch(`${baseUrl}/readyz`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).json();
    expect(ready).toMatchObject({
      testEnvironment: true,
      testDoubles: [
        "payments",
        "identity",
        "esim",
        "mail",
        "bss",
        "sms",
        "id-validation",
        "invoices",
      ],
    });
    for (const path of ["/", "/plans", "/help-center", "/auth/sign-in", "/cart"]) {
      // Plain HTTP: the page as a browser without JavaScript gets it.
      const html = await (await fetch(`${baseUrl}${path}`)).text();
      expect(html, path).toContain('data-testid="test-environment-banner"');
      expect(html, path).toContain("Entorno de pruebas");
    }
    await page.goto(`${baseUrl}/plans`);
    await expect(page.getByTestId("test-environment-banner")).toBeVisible();
    await expect(page.getByTestId("test-environment-banner")).toHaveText(/^Entorno de pruebas/);
  } finally {
    await stopServer(server);
  }
  // Outside production the test doubles are the embedded defaults, and no banner is shown.
  const developmentPort = nextPort();
  const development = startServer({ NODE_ENV: "test", PORT: String(developmentPort) });
  try {
    const base = `http://localhost:${developmentPort}`;
    await waitForHealth(base, development);
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({
      testEnvironment: false,
      testDoubles: [
        "payments",
        "identity",
        "esim",
        "mail",
        "bss",
        "sms",
        "id-validation",
        "invoices",
      ],
    });
    expect(await (await fetch(`${base}/plans`)).text()).not.toContain("test-environment-banner");
  } finally {
    await stopServer(development);
  }
});

/** An address of this machine that is not loopback, if it has one. */
function externalAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === "IPv4" && !address.internal) return address.address;
    }
  }
  return null;
}

test("outside production the server listens on loopback only, so its outbox stays off the network", async () => {
  const port = nextPort();
  const server = startServer({ NODE_ENV: "test", PORT: String(port) });
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, server);
    const listening = server.output
      .join("")
      .split("\n")
      .find((line) => line.includes('"msg":"listening"'));
    expect(JSON.parse(listening!)).toMatchObject({ host: "127.0.0.1", port });
    const external = externalAddress();
    if (external) {
      await expect(
        fetch(`http://${external}:${port}/dev/outbox`, { signal: AbortSignal.timeout(3_000) }),
      ).rejects.toThrow();
    }
  } finally {
    await stopServer(server);
  }
});

/** Whether any process of this process group is still alive. */
function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

test("SIGTERM ends the server even when the process reading its output has gone", async ({
  playwright,
}) => {
  test.setTimeout(60_000);
  const port = nextPort();
  const baseUrl = `http://localhost:${port}`;
  // As an operator's supervisor does: `npm start` in its own process group, output through pipes.
  const child = spawn("npm", ["start", "--silent"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      PORT: String(port),
      LOG_LEVEL: "info",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "storefront-sigterm-")),
      SESSION_SECRET: "operations-test-secret-0123456789-abcdefghij",
    },
  });
  const output: string[] = [];
  child.stdout.on("data", (chunk) => output.push(String(chunk)));
  child.stderr.on("data", (chunk) => output.push(String(chunk)));
  const groupId = child.pid!;
  try {
    await waitForHealth(baseUrl, { child, output });
    // A customer signs in, as in the report: the server has logged and talked to the emulator.
    const request = await playwright.request.newContext({ baseURL: baseUrl });
    const customer = await createCustomer(request, "sigterm");
    const signedIn = await request.post("/auth/sign-in", {
      form: { username: customer.email, password: customer.password },
      maxRedirects: 0,
    });
    expect(signedIn.status()).toBe(303);
    await request.dispose();

    // The parent goes away: nobody reads the pipes any more.
    child.stdout.destroy();
    child.stderr.destroy();
    const signalled = Date.now();
    process.kill(-groupId, "SIGTERM");
    await expect.poll(() => groupAlive(groupId), { timeout: 15_000 }).toBe(false);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  } finally {
    if (groupAlive(groupId)) process.kill(-groupId, "SIGKILL");
  }
});

test("a second SIGTERM ends the server at once, while the first waits for requests in flight", async () => {
  const port = nextPort();
  const server = startServer({ NODE_ENV: "test", PORT: String(port) });
  await waitForHealth(`http://localhost:${port}`, server);
  // A request still sending its body keeps the first shutdown waiting (up to its grace period).
  const inFlight = connect(port, "127.0.0.1");
  inFlight.on("error", () => undefined);
  await new Promise((resolve) => inFlight.once("connect", resolve));
  inFlight.write(
    "POST /cart HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nintent=add",
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(server.child.exitCode).toBeNull();
  const second = Date.now();
  server.child.kill("SIGTERM");
  const code = await server.exited;
  expect(Date.now() - second).toBeLessThan(1_000);
  expect(code).not.toBe(0);
  expect(server.output.join("")).toContain("second signal");
  inFlight.destroy();
});

test("in production /readyz tells the public only up or down; the queues and checks need METRICS_TOKEN", async () => {
  const port = nextPort();
  const baseUrl = `http://localhost:${port}`;
  const server = startProductionTestEnvironment(port);
  try {
    await waitForHealth(baseUrl, server);
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", METRICS_TOKEN]) {
      const answer = await fetch(`${baseUrl}/readyz`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(answer.status, authorization).toBe(200);
      expect(answer.headers.get("cache-control"), authorization).toBe("no-store");
      expect(await answer.json(), authorization).toEqual({ status: "ready" });
    }
    const operator = await fetch(`${baseUrl}/readyz`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(operator.status).toBe(200);
    const detail = (await operator.json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ status: "ready", checks: { database: "ok" } });
    for (const field of ["mail", "lineJobs", "autoTopups", "testDoubles"]) {
      expect(detail, field).toHaveProperty(field);
    }
  } finally {
    await stopServer(server);
  }
  // Production without METRICS_TOKEN: nobody reads the detail.
  const tokenlessPort = nextPort();
  const tokenless = startServer({
    NODE_ENV: "production",
    PORT: String(tokenlessPort),
    SESSION_SECRET: "operations-test-secret-0123456789-abcdefghij",
    ...productionTestEnvironment(`http://localhost:${tokenlessPort}`),
  });
  try {
    const base = `http://localhost:${tokenlessPort}`;
    await waitForHealth(base, tokenless);
    const answer = await fetch(`${base}/readyz`, { headers: { Authorization: "Bearer x" } });
    expect(await answer.json()).toEqual({ status: "ready" });
  } finally {
    await stopServer(tokenless);
  }
});
