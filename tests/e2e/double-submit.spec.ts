import { execFileSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { createThrowawayDatabase } from "../../scripts/throwaway-database.mjs";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { tcpProxy, throughProxy } from "../support/tcp-proxy";

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

interface Answer {
  status: number;
  location: string | null;
  setCookies: string[];
  text: string;
}

/**
 * One request on a connection of its own: node:cluster hands each new connection to the next
 * worker, so two sent together are answered by both.
 */
function send(
  baseUrl: string,
  path: string,
  cookies: Map<string, string>,
  form?: Record<string, string>,
): Promise<Answer> {
  const body = form ? new URLSearchParams(form).toString() : "";
  const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${path}`,
      {
        method: form ? "POST" : "GET",
        agent: false,
        headers: {
          Connection: "close",
          ...(cookie ? { Cookie: cookie } : {}),
          ...(form
            ? {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": Buffer.byteLength(body),
                Origin: baseUrl,
              }
            : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? null,
            setCookies: response.headers["set-cookie"] ?? [],
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A browser's cookies, as the answers set them. */
function keep(cookies: Map<string, string>, answer: Answer) {
  for (const line of answer.setCookies) {
    const [pair] = line.split(";");
    const at = pair!.indexOf("=");
    const name = pair!.slice(0, at);
    const value = pair!.slice(at + 1);
    if (/Max-Age=0/i.test(line)) cookies.delete(name);
    else cookies.set(name, value);
  }
}

function formKey(html: string): string {
  const key = /name="idempotency_key" value="([^"]+)"/.exec(html)?.[1];
  expect(key).toBeTruthy();
  return key!;
}

const randomLine = (prefix: string) =>
  `${prefix}${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/** Sends `form` twice, the second `lagMs` after the first, each on its own connection. */
async function twice(
  baseUrl: string,
  path: string,
  cookies: Map<string, string>,
  form: Record<string, string>,
  lagMs: number,
) {
  const first = send(baseUrl, path, cookies, form);
  await new Promise((resolve) => setTimeout(resolve, lagMs));
  return Promise.all([first, send(baseUrl, path, cookies, form)]);
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
      const cookies = new Map<string, string>();
      const page = await send(baseUrl, "/portabilidad", cookies);
      keep(cookies, page);
      const [a, b] = await twice(
        baseUrl,
        "/portabilidad",
        cookies,
        {
          phone_number: randomLine("55"),
          nip: "7391",
          full_name: "Ana Gómez Martínez",
          email: `gemela.${run}@ejemplo.mx`,
          curp: "GOMA850312MDFRRN09",
          current_carrier: "telcel",
          accept_terms: "on",
          idempotency_key: formKey(page.text),
        },
        lag,
      );
      expect([a.status, b.status], `portability, ${lag} ms apart`).toEqual([303, 303]);
      expect(b.location, `portability, ${lag} ms apart`).toBe(a.location);
    }

    for (const lag of LAGS) {
      // A top-up without an account, paid in cash: one top-up and one voucher.
      const cookies = new Map<string, string>();
      const page = await send(baseUrl, "/recarga", cookies);
      keep(cookies, page);
      const line = randomLine("56");
      const [a, b] = await twice(
        baseUrl,
        "/recarga",
        cookies,
        {
          phone_number: line,
          phone_number_confirm: line,
          amount: "100",
          payment_method: "cash",
          email: `gemela.${run}@ejemplo.mx`,
          idempotency_key: formKey(page.text),
        },
        lag,
      );
      expect([a.status, b.status], `top-up, ${lag} ms apart`).toEqual([303, 303]);
      expect(b.location, `top-up, ${lag} ms apart`).toBe(a.location);
    }

    for (const lag of LAGS) {
      // An order paid in cash, from a cart.
      const cookies = new Map<string, string>();
      keep(cookies, await send(baseUrl, "/cart", cookies, { intent: "add", id: "conecta-100" }));
      const page = await send(baseUrl, "/checkout", cookies);
      keep(cookies, page);
      const [a, b] = await twice(
        baseUrl,
        "/checkout",
        cookies,
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
          accept_terms: "on",
          idempotency_key: formKey(page.text),
        },
        lag,
      );
      expect([a.status, b.status], `order, ${lag} ms apart`).toEqual([303, 303]);
      expect(b.location, `order, ${lag} ms apart`).toBe(a.location);
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
