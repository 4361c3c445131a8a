import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { createThrowawayDatabase } from "../../scripts/throwaway-database.mjs";
import { CookieJar, rawRequest, type RawAnswer } from "../support/raw-http";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { tcpProxy, throughProxy } from "../support/tcp-proxy";
import { holderFormFields } from "./support/commerce";

// Issue 30: an impatient customer's two identical submissions (the same form, the same key) on two
// workers of one PostgreSQL database. Whatever order they arrive in, and however far apart, the
// second is answered with what the first made — never refused by a rule the first just tripped
// (one open portability request per number, the limits), never a second request or top-up.

// The server process itself: one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");

function postgresServerUrl(): string {
  const named = process.env.E2E_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (named) return named;
  const script = fileURLToPath(new URL("../../scripts/ensure-postgres.sh", import.meta.url));
  return execFileSync("bash", [script], { encoding: "utf8" }).trim().split("\n").at(-1) ?? "";
}

async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function formKey(html: string): string {
  const key = /name="idempotency_key" value="([^"]+)"/.exec(html)?.[1];
  expect(key).toBeTruthy();
  return key!;
}

const randomLine = (prefix: string) =>
  `${prefix}${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/** One request of a browser with these cookies, on a connection of its own (so on either worker). */
async function send(port: number, path: string, jar: CookieJar, form?: Record<string, string>) {
  const origin = `http://localhost:${port}`;
  const answer = await rawRequest(port, {
    path,
    form,
    ownConnection: true,
    // The site's own name and origin, as a browser on it sends them.
    headers: { Host: `localhost:${port}`, Cookie: jar.header, ...(form ? { Origin: origin } : {}) },
  });
  jar.keep(answer.headers);
  return answer;
}

/** Sends `form` twice, the second `lagMs` after the first, each on its own connection. */
async function twice(
  port: number,
  path: string,
  jar: CookieJar,
  form: Record<string, string>,
  lagMs: number,
): Promise<RawAnswer[]> {
  const first = send(port, path, jar, form);
  await new Promise((resolve) => setTimeout(resolve, lagMs));
  return Promise.all([first, send(port, path, jar, form)]);
}

/**
 * The second sending trails the first by 0 to 60 ms: across the whole of the first one's work,
 * with the database a few milliseconds away as on another machine.
 */
const LAGS = Array.from({ length: 21 }, (_, index) => index * 3);
const DATABASE_LATENCY_MS = 3;

test("the same form sent twice at once to two workers on PostgreSQL makes one thing, and both answers show it", async () => {
  test.setTimeout(180_000);
  const database = await createThrowawayDatabase(postgresServerUrl(), "storefront_twins");
  const target = new URL(database.url);
  const proxy = tcpProxy(
    { host: target.hostname, port: Number(target.port) },
    { latencyMs: DATABASE_LATENCY_MS },
  );
  await proxy.start();
  const port = freePort(test.info().workerIndex);
  const baseUrl = `http://localhost:${port}`;
  const server = startServer({
    NODE_ENV: "production",
    PORT: String(port),
    SESSION_SECRET: "double-submit-secret-0123456789-abcdefghijkl",
    WEB_CONCURRENCY: "2",
    DATABASE_URL: throughProxy(database.url, proxy),
    TOPUP_RATE_LIMIT_PER_IP: "1000000",
    ...productionTestEnvironment(baseUrl),
  });
  try {
    await waitForHealth(baseUrl, server, 60_000);
    const run = `${Date.now()}`;

    for (const lag of LAGS) {
      // Portability: one open request per number is the rule the second sending must not meet.
      const jar = new CookieJar();
      const page = await send(port, "/portabilidad", jar);
      const [a, b] = await twice(
        port,
        "/portabilidad",
        jar,
        {
          phone_number: randomLine("55"),
          nip: "7391",
          full_name: "Ana Gómez Martínez",
          email: `gemela.${run}@ejemplo.mx`,
          curp: "GOMA850312MDFRRN09",
          current_carrier: "telcel",
          accept_terms: "on",
          idempotency_key: formKey(page.body),
        },
        lag,
      );
      expect([a.status, b.status], `portability, ${lag} ms apart`).toEqual([303, 303]);
      expect(b.headers.location, `portability, ${lag} ms apart`).toBe(a.headers.location);
    }

    for (const lag of LAGS) {
      // A top-up without an account, paid in cash: one top-up and one voucher.
      const jar = new CookieJar();
      const page = await send(port, "/recarga", jar);
      const line = randomLine("56");
      const [a, b] = await twice(
        port,
        "/recarga",
        jar,
        {
          phone_number: line,
          phone_number_confirm: line,
          amount: "100",
          payment_method: "cash",
          email: `gemela.${run}@ejemplo.mx`,
          idempotency_key: formKey(page.body),
        },
        lag,
      );
      expect([a.status, b.status], `top-up, ${lag} ms apart`).toEqual([303, 303]);
      expect(b.headers.location, `top-up, ${lag} ms apart`).toBe(a.headers.location);
    }

    for (const lag of LAGS) {
      // An order paid in cash, from a cart.
      const jar = new CookieJar();
      await send(port, "/cart", jar, { intent: "add", id: "conecta-100" });
      const page = await send(port, "/checkout", jar);
      const [a, b] = await twice(
        port,
        "/checkout",
        jar,
        {
          full_name: "Ana Gómez Martínez",
          email: `gemela.${run}@ejemplo.mx`,
          phone_number: "5512345678",
          sim_type: "physical",
          street: "Calle Gemela",
          exterior_number: "2",
          interior_number: "",
          neighborhood: "Centro",
          postal_code: "06000",
          municipality: "Cuauhtémoc",
          state: "CMX",
          payment_method: "cash",
          ...holderFormFields(),
          accept_terms: "on",
          idempotency_key: formKey(page.body),
        },
        lag,
      );
      expect([a.status, b.status], `order, ${lag} ms apart`).toEqual([303, 303]);
      expect(b.headers.location, `order, ${lag} ms apart`).toBe(a.headers.location);
    }

    // One of each per pair, one voucher each: nothing was made twice.
    const counts = await onDatabase(database.url, async (client) => {
      const count = async (sql: string) =>
        Number((await client.query<{ n: string }>(sql, [`gemela.${run}@ejemplo.mx`])).rows[0]!.n);
      return {
        requests: await count("select count(*) as n from portability_requests where email = $1"),
        topups: await count("select count(*) as n from topups where email = $1"),
        orders: await count("select count(*) as n from orders where email = $1"),
        vouchers: await count(
          `select count(*) as n from payments where status = 'pending' and reference in
             (select id from topups where email = $1 union select id from orders where email = $1)`,
        ),
      };
    });
    expect(counts).toEqual({
      requests: LAGS.length,
      topups: LAGS.length,
      orders: LAGS.length,
      vouchers: 2 * LAGS.length,
    });
  } finally {
    await stopServer(server);
    await proxy.cut();
    await database.drop().catch(() => undefined);
  }
});
