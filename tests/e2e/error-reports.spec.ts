import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import { expect, test } from "@playwright/test";
import {
  startErrorTrackerStandIn,
  type ErrorTrackerStandIn,
} from "../support/error-tracker-stand-in";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";

// Unexpected errors go to the error tracker (decision 0111): SENTRY_DSN pointed at a local
// stand-in that takes Sentry's envelopes. The fault: the orders table gone from under the running
// server, so that the order lookup's form fails with a 500 the customer sees as the error page.

const EMAIL = "ana.lopez.reporte@example.com";
const FOLIO = "PED-2026-000777";

let tracker: ErrorTrackerStandIn;
let server: ServerProcess;
let baseUrl: string;

test.beforeEach(async () => {
  tracker = await startErrorTrackerStandIn();
  const port = freePort(test.info().workerIndex);
  baseUrl = `http://localhost:${port}`;
  server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET: "error-report-secret-0123456789-abcdefghijkl",
    SENTRY_DSN: tracker.dsn,
    SENTRY_ENVIRONMENT: "e2e",
  });
  await waitForHealth(baseUrl, server);
});

test.afterEach(async () => {
  await stopServer(server);
  await tracker.close();
});

/** Takes the orders table away from the running server (SQLite under its DATA_DIR). */
function breakTheOrdersTable(dataDir: string) {
  const database = new SQLite(path.join(dataDir, "storefront.sqlite"));
  try {
    database.exec("ALTER TABLE orders RENAME TO orders_gone");
  } finally {
    database.close();
  }
}

test("an error behind a form reaches the tracker with the request id, and nothing of the customer", async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  await page.goto(`${baseUrl}/pedido?folio=${FOLIO}`);
  await page.getByLabel(/correo/i).fill(EMAIL);
  // A cookie of the browser's own, to prove that none travels with the report.
  await context.addCookies([{ name: "tracker_probe", value: "cookie-value-4711", url: baseUrl }]);
  breakTheOrdersTable(server.dataDir);

  // The form's POST: the document without JavaScript, its `.data` request with it.
  const failed = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" &&
      new URL(response.url()).pathname.startsWith("/pedido"),
  );
  await page.getByRole("button", { name: /enviar|enlace/i }).click();
  const answer = await failed;
  expect(answer.status()).toBe(500);
  const requestId = answer.headers()["x-request-id"]!;
  expect(requestId).toBeTruthy();
  // The customer sees the site's error page, in Spanish.
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  const reportOf = () =>
    tracker
      .events()
      .find((event) => (event.tags as { request_id?: string }).request_id === requestId);
  await expect.poll(() => reportOf() !== undefined, { timeout: 10_000 }).toBe(true);
  // One report of that error, none of anything else.
  expect(tracker.events()).toHaveLength(1);
  const event = reportOf();
  expect(event!.tags).toMatchObject({
    request_id: requestId,
    route: "routes/pedido",
    method: "POST",
  });
  expect(event!.environment).toBe("e2e");
  const exception = (event!.exception as { values: Array<{ value: string }> }).values.at(-1)!;
  expect(exception.value).toContain("no such table: orders");

  const everything = tracker.envelopes.map((envelope) => envelope.raw).join("\n");
  for (const personal of [EMAIL, "ana.lopez", "cookie-value-4711", "tracker_probe", "correo="]) {
    expect(everything).not.toContain(personal);
  }
  for (const field of ["request", "user", "breadcrumbs"]) {
    expect(event, field).not.toHaveProperty(field);
  }
  // The server's log has the same request id, so the two can be read together.
  expect(server.output.join("")).toContain(requestId);
});

test("a page that answers as designed is not reported", async ({ page }) => {
  await page.goto(`${baseUrl}/no-such-page`);
  await page.goto(`${baseUrl}/plans`);
  // A request that is answered within the grace of a report's delivery.
  await page.waitForTimeout(1_000);
  expect(tracker.envelopes).toEqual([]);
});

test("a method no route serves is a Spanish 405 naming the served ones, the client's mistake: no error line, no report", async ({
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "HTTP only: one project runs it");
  const paths = ["/", "/plans", "/cart", "/no-such-page", "/healthz"];
  for (const method of ["TRACE", "PROPFIND", "OPTIONS", "PUT", "DELETE"]) {
    for (const path of paths) {
      const answer = await fetch(`${baseUrl}${path}`, { method }).catch(() => null);
      // fetch refuses to send TRACE itself: asked through Node's own client below.
      if (answer === null) continue;
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get("allow"), `${method} ${path}`).toBe("GET, HEAD, POST");
      expect(await answer.text(), `${method} ${path}`).toMatch(/^Solicitud rechazada/);
    }
  }
  for (const path of paths) {
    const { status, allow } = await rawTrace(`${baseUrl}${path}`);
    expect(status, `TRACE ${path}`).toBe(405);
    expect(allow, `TRACE ${path}`).toBe("GET, HEAD, POST");
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(tracker.envelopes).toEqual([]);
  const lines = server.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  expect(lines.filter((line) => line.msg === "method not allowed").length).toBeGreaterThan(0);
});

/** TRACE through node:http: the fetch standard forbids the method. */
function rawTrace(url: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "TRACE" }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, allow: response.headers.allow }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}
