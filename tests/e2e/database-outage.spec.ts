import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { tcpProxy, throughProxy } from "../support/tcp-proxy";
import { payWithCard, TEST_CARDS, TOPUP_RECEIPT_URL } from "./support/commerce";

// Issue 19: PostgreSQL going away under a running server (decision 0076). A page whose loader
// reads the database answers a Spanish "try again" 503, never a 500, and works again once the
// database is back. The server reaches PostgreSQL through a proxy this test can cut.

/** The PostgreSQL server of the test run: the one named, or the private one (0074). */
function postgresServerUrl(): string {
  const named = process.env.E2E_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (named) return named;
  const script = fileURLToPath(new URL("../../scripts/ensure-postgres.sh", import.meta.url));
  const output = execFileSync("bash", [script], { encoding: "utf8" });
  return output.trim().split("\n").at(-1) ?? "";
}

async function onServer(serverUrl: string, work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A paid guest top-up made in the browser; its receipt's address. */
async function paidTopup(page: Page, baseUrl: string): Promise<string> {
  const line = `57${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  await page.goto(`${baseUrl}/recarga`);
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$100(?![\d.,])/ }).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  return new URL(page.url()).pathname;
}

test("PostgreSQL going away: a receipt answers a Spanish 503 with Retry-After, then works again", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const serverUrl = postgresServerUrl();
  const databaseName = `storefront_outage_${randomBytes(4).toString("hex")}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${databaseName}"`));
  const target = new URL(serverUrl);
  const proxy = tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
  const databaseUrl = new URL(throughProxy(serverUrl, proxy));
  databaseUrl.pathname = `/${databaseName}`;

  const port = freePort(testInfo.workerIndex);
  const baseUrl = `http://localhost:${port}`;
  const server = startServer({
    NODE_ENV: "production",
    PORT: String(port),
    LOG_LEVEL: "warn",
    SESSION_SECRET: "outage-test-secret-0123456789-abcdefghijklm",
    DATABASE_URL: databaseUrl.toString(),
    DATABASE_STATEMENT_TIMEOUT_MS: "1000",
    ...productionTestEnvironment(baseUrl),
  });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  try {
    await waitForHealth(baseUrl, server);
    const receipt = await paidTopup(page, baseUrl);

    await proxy.cut();

    // The document, as a browser without JavaScript or a crawler gets it.
    const document = await fetch(`${baseUrl}${receipt}`);
    expect(document.status).toBe(503);
    expect(document.headers.get("retry-after")).toBe("5");
    expect(document.headers.get("cache-control")).toBe("private, no-store");
    const html = await document.text();
    expect(html).toContain("Servicio no disponible por un momento");
    expect(html).toContain("Intenta de nuevo en unos segundos");
    expect(html).not.toMatch(/ECONNREFUSED|Unexpected Server Error|at .*\.js:\d+/);
    // The data request of a client-side navigation: the same answer.
    const navigation = await fetch(`${baseUrl}${receipt}.data`);
    expect(navigation.status).toBe(503);
    expect(navigation.headers.get("retry-after")).toBe("5");
    // What reads no database still answers; readiness says the database is missing.
    expect((await fetch(`${baseUrl}/`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(503);

    // In the browser, with JavaScript as the project says: the message stays after hydration.
    const answer = await page.goto(`${baseUrl}${receipt}`);
    expect(answer?.status()).toBe(503);
    await expect(page.getByTestId("unavailable")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Servicio no disponible por un momento",
    );
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Servicio no disponible por un momento",
    );
    expect(consoleErrors.filter((text) => /hydrat|Minified React error/i.test(text))).toEqual([]);

    await proxy.restore();
    // The pool opens new connections: "Intentar de nuevo" shows the receipt.
    await expect
      .poll(async () => (await fetch(`${baseUrl}${receipt}`)).status, { timeout: 15_000 })
      .toBe(200);
    await page.getByRole("link", { name: "Intentar de nuevo" }).click();
    await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);

    const log = server.output.join("");
    expect(log).toContain("page not shown: database unavailable");
    expect(log).not.toContain("unhandled route error");
  } finally {
    await stopServer(server);
    writeFileSync(testInfo.outputPath("server.log"), server.output.join(""));
    await proxy.cut();
    await onServer(serverUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
    ).catch(() => undefined);
  }
});
