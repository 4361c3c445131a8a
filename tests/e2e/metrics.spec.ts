import { expect, test, type APIRequestContext } from "@playwright/test";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { metricNamesOfRules } from "../support/alert-rules";
import { rawRequest } from "../support/raw-http";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";

// GET /metrics (decision 0110): Prometheus' text, a counter a page view moves, never a path or a
// customer's data in a label; clustered, one scrape gives every worker.

/** The request counter of one route, GET, 2xx: the request histogram's _count. */
function plansViews(text: string): number {
  return sampleOf(
    text,
    'storefront_http_request_duration_seconds_count{route="routes/plans",method="GET",status_class="2xx"}',
  );
}

function sampleOf(text: string, series: string): number {
  const line = text.split("\n").find((each) => each.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function scrape(request: APIRequestContext): Promise<string> {
  const answer = await request.get("/metrics");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toContain("text/plain");
  return answer.text();
}

test("a page view moves its route's counter in /metrics, and no path or customer reaches a label", async ({
  page,
  request,
}) => {
  const before = plansViews(await scrape(request));
  await page.goto("/plans");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect.poll(async () => plansViews(await scrape(request))).toBeGreaterThan(before);

  // A receipt's address holds its key, a line's page its number: neither becomes a label.
  const receiptKey = `Zk${Date.now().toString(36)}QmXw2bTn4Ls8Vd1Aq`;
  await page.goto(`/recarga/${receiptKey}?correo=ana%40example.com`);
  const text = await scrape(request);
  expect(text).toContain('route="routes/recarga_.$id"');
  expect(text).not.toContain(receiptKey);
  expect(text).not.toContain("ana@example.com");
  // Every request label is a route id or one of the server's own steps.
  const routes = new Set(
    [...text.matchAll(/storefront_http_request_duration_seconds_count\{route="([^"]*)"/g)].map(
      (match) => match[1]!,
    ),
  );
  for (const route of routes) {
    expect(route).toMatch(
      /^(root|routes\/\S+|unrouted|static|healthz|readyz|metrics|remix-manifest|build-version)$/,
    );
  }
  // Node's own metrics are there too.
  expect(text).toContain("process_cpu_user_seconds_total");
  expect(text).toContain("nodejs_heap_size_used_bytes");
});

test("/metrics names the build it serves: storefront_build_info 1 with its version, commit and Node", async ({
  request,
}) => {
  const text = await scrape(request);
  expect(text).toContain("# TYPE storefront_build_info gauge");
  const series = [...text.matchAll(/^storefront_build_info\{([^}]*)\} (\S+)$/gm)];
  expect(series).toHaveLength(1);
  const [, labels, value] = series[0]!;
  expect(value).toBe("1");
  const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels!)?.[1];
  // The version is the one /build-version tells open tabs.
  const { version } = (await (await request.get("/build-version")).json()) as { version: string };
  expect(label("version")).toBe(version);
  // The commit the build was made from (npm run build records `git rev-parse HEAD`).
  expect(label("commit")).toMatch(/^([0-9a-f]{40}|unknown)$/);
  expect(label("commit")).not.toBe("unknown");
  expect(label("node")).toMatch(/^v\d+\.\d+\.\d+$/);
});

test("every metric the alerting rules read (deploy/prometheus/alerts.yml) is one /metrics exposes", async ({
  request,
}) => {
  const text = await scrape(request);
  const names = metricNamesOfRules();
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) {
    expect(text, name).toMatch(
      new RegExp(`^# TYPE ${name} (counter|gauge|histogram|summary)$`, "m"),
    );
  }
});

/** Two workers behind one port, as cluster.spec.ts starts them, with the metrics settings given. */
function startTwoWorkers(port: number, metricsSettings: Record<string, string>) {
  const baseUrl = `http://localhost:${port}`;
  return startServer({
    NODE_ENV: "production",
    PORT: String(port),
    SESSION_SECRET: "metrics-test-secret-0123456789-abcdefghijkl",
    WEB_CONCURRENCY: "2",
    PAGE_CACHE_SECONDS: "60",
    ...productionTestEnvironment(baseUrl),
    ...metricsSettings,
  });
}

/** Until both workers answer (each starts the app on its own: slow on a busy machine). */
async function bothWorkersUp(port: number, server: ServerProcess) {
  await waitForHealth(`http://localhost:${port}`, server, 90_000);
  // Both workers up: each answers /healthz with its number.
  await expect
    .poll(
      async () => {
        const seen = new Set<number>();
        for (let probe = 0; probe < 4; probe++) {
          const answer = await rawRequest(port, { path: "/healthz", ownConnection: true });
          const health = JSON.parse(answer.body) as { worker?: number };
          if (health.worker) seen.add(health.worker);
        }
        return seen.size;
      },
      { timeout: 90_000 },
    )
    .toBe(2);
}

/** Page views on connections of their own: node:cluster hands them to both workers in turn. */
async function viewPlans(port: number, times: number): Promise<string[]> {
  const ids: string[] = [];
  for (let view = 0; view < times; view++) {
    const answer = await rawRequest(port, {
      path: "/plans",
      headers: { Host: `localhost:${port}` },
      ownConnection: true,
    });
    expect(answer.status).toBe(200);
    ids.push(String(answer.headers["x-request-id"]));
  }
  return ids;
}

/** Which worker answered each request, from the request log. */
function workersOf(server: ServerProcess, requestIds: string[]): Set<number | undefined> {
  const workerOf = new Map<string, number>();
  for (const line of server.output.join("").split("\n")) {
    if (!line.includes('"msg":"request"')) continue;
    const entry = JSON.parse(line) as { requestId: string; worker: number };
    workerOf.set(entry.requestId, entry.worker);
  }
  return new Set(requestIds.map((id) => workerOf.get(id)));
}

test.describe("two workers, one scrape", () => {
  // The server process itself: one project runs it.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");

  test("on the public port behind METRICS_TOKEN, whichever worker takes the scrape", async () => {
    test.setTimeout(180_000);
    const port = freePort(test.info().workerIndex);
    const token = "metrics-token-0123456789-abcdefghijklmnopq";
    const server = startTwoWorkers(port, { METRICS_TOKEN: token });
    try {
      await bothWorkersUp(port, server);
      const scrapeWith = async (authorization?: string) =>
        rawRequest(port, {
          path: "/metrics",
          headers: authorization ? { Authorization: authorization } : {},
          ownConnection: true,
        });
      expect((await scrapeWith()).status).toBe(401);
      expect((await scrapeWith("Bearer not-the-token")).status).toBe(401);

      const before = plansViews((await scrapeWith(`Bearer ${token}`)).body);
      const views = await viewPlans(port, 6);
      await expect.poll(() => workersOf(server, views)).toEqual(new Set([1, 2]));
      // Two scrapes, on two connections (so, as a rule, two workers): the same sum of both.
      for (let scrapeNumber = 0; scrapeNumber < 2; scrapeNumber++) {
        const answer = await scrapeWith(`Bearer ${token}`);
        expect(answer.status).toBe(200);
        expect(plansViews(answer.body)).toBe(before + 6);
        // The first view of each worker rendered the page, the others came from its memory.
        expect(
          sampleOf(answer.body, 'storefront_page_cache_lookups_total{cache="anyone",result="hit"}'),
        ).toBeGreaterThanOrEqual(4);
        expect(answer.body).toContain("process_resident_memory_bytes");
        // One build served by both workers: one series of 1, not their sum (decision 0143).
        expect(answer.body.match(/^storefront_build_info\{.*\} 1$/gm)).toHaveLength(1);
      }
    } finally {
      await stopServer(server);
    }
    expect(await server.exited).toBe(0);
  });

  test("on METRICS_PORT, served by the primary, off the public port", async () => {
    test.setTimeout(180_000);
    const port = freePort(test.info().workerIndex);
    const metricsPort = freePort(test.info().workerIndex);
    const server = startTwoWorkers(port, { METRICS_PORT: String(metricsPort) });
    try {
      await bothWorkersUp(port, server);
      const scrapeMetricsPort = () =>
        rawRequest(metricsPort, { path: "/metrics", ownConnection: true });
      const before = plansViews((await scrapeMetricsPort()).body);
      const views = await viewPlans(port, 4);
      await expect.poll(() => workersOf(server, views)).toEqual(new Set([1, 2]));
      const answer = await scrapeMetricsPort();
      expect(answer.status).toBe(200);
      expect(plansViews(answer.body)).toBe(before + 4);
      // Nothing of it on the public port: the site's own 404.
      const publicScrape = await rawRequest(port, {
        path: "/metrics",
        headers: { Host: `localhost:${port}` },
        ownConnection: true,
      });
      expect(publicScrape.status).toBe(404);
      expect(publicScrape.body).not.toContain("storefront_http_request_duration_seconds");
      expect(server.output.join("")).toContain('"msg":"metrics listening"');
    } finally {
      await stopServer(server);
    }
    expect(await server.exited).toBe(0);
  });
});
