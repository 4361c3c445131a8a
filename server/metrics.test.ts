import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import express from "express";
import fc from "fast-check";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createMetrics } from "~/observability/metrics.server";
import {
  carriesToken,
  closeMetricsServer,
  labelRoute,
  listenForMetrics,
  metricsEndpoint,
  pathShape,
  registryText,
  routeLabeller,
  STEP_LABELS,
  stepLabel,
} from "./metrics";
import { requestLog } from "./middlewares";

/** The app's routes as the build lists them (the shapes that matter: index, nested, dynamic, splat). */
const ROUTES = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  "routes/plans": { id: "routes/plans", parentId: "root", path: "plans" },
  "routes/recarga": { id: "routes/recarga", parentId: "root", path: "recarga" },
  "routes/recarga_.$id": { id: "routes/recarga_.$id", parentId: "root", path: "recarga/:id" },
  "routes/my-account": { id: "routes/my-account", parentId: "root", path: "my-account" },
  "routes/my-account._index": {
    id: "routes/my-account._index",
    parentId: "routes/my-account",
    index: true,
  },
  "routes/my-account.lineas.$numero": {
    id: "routes/my-account.lineas.$numero",
    parentId: "routes/my-account",
    path: "lineas/:numero",
  },
  "routes/sandbox.pago.$id": {
    id: "routes/sandbox.pago.$id",
    parentId: "root",
    path: "sandbox/pago/:id",
  },
  "routes/$": { id: "routes/$", parentId: "root", path: "*" },
} as unknown as ServerBuild["routes"];

const ROUTE_IDS = new Set([...Object.keys(ROUTES), ...Object.values(STEP_LABELS)]);

describe("route labels", () => {
  const labelOf = routeLabeller(ROUTES);

  it("are the route that answers, never the path", () => {
    expect(labelOf("/")).toBe("routes/_index");
    expect(labelOf("/plans")).toBe("routes/plans");
    expect(labelOf("/recarga")).toBe("routes/recarga");
    expect(labelOf("/recarga/Zk3p9QmXw2bTn4Ls8Vd1Aq")).toBe("routes/recarga_.$id");
    expect(labelOf("/my-account")).toBe("routes/my-account._index");
    expect(labelOf("/my-account/lineas/5512345678")).toBe("routes/my-account.lineas.$numero");
    expect(labelOf("/sandbox/pago/chk_123")).toBe("routes/sandbox.pago.$id");
    expect(labelOf("/no/such/page/ana@example.com")).toBe("routes/$");
  });

  it("name a single-fetch data request after its page, and React Router's manifest after itself", () => {
    expect(labelOf("/plans.data")).toBe("routes/plans");
    expect(labelOf("/_.data")).toBe("routes/_index");
    expect(labelOf("/my-account/lineas/5512345678.data")).toBe("routes/my-account.lineas.$numero");
    expect(labelOf("/__manifest")).toBe(STEP_LABELS.manifest);
  });

  it("are always one of the route ids or the server's steps, whatever the path", () => {
    // Segments of the app's paths and anything else (numbers, addresses, unicode); paths with
    // a broken % escape never get here: server.ts refuses them first (400).
    const segment = fc.oneof(
      fc.constantFrom("plans", "recarga", "my-account", "lineas", "sandbox", "pago", ""),
      fc.string().map(encodeURIComponent),
      fc.stringMatching(/^\d{10}$/),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.boolean(), (segments, data) => {
        const path = `/${segments.join("/")}${data ? ".data" : ""}`;
        const label = labelOf(path);
        expect(ROUTE_IDS.has(label), `${path} → ${label}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("route labels remembered by the path's shape", () => {
  it("give what the router gives, path by path", () => {
    // One labeller remembers across paths; a new one for each path only asks the router.
    const remembering = routeLabeller(ROUTES);
    const segment = fc.oneof(
      fc.constantFrom("plans", "PLANS", "recarga", "my-account", "lineas", "sandbox", "pago"),
      fc.constantFrom("pl%61ns", "%20", "a%2Fb", "", "x.data"),
      fc.string().map(encodeURIComponent),
      fc.stringMatching(/^\d{10}$/),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.boolean(), (segments, data) => {
        const path = `/${segments.join("/")}${data ? ".data" : ""}`;
        expect(remembering(path), path).toBe(routeLabeller(ROUTES)(path));
      }),
      { numRuns: 400 },
    );
  });

  it("are few, whatever paths a scanner sends", () => {
    const literals = new Set(["plans", "recarga"]);
    expect(pathShape("/recarga/Zk3p9QmXw2bTn4Ls8Vd1Aq", literals)).toBe("/recarga/:");
    expect(pathShape("/recarga/otro", literals)).toBe("/recarga/:");
    expect(pathShape("/PLANS", literals)).toBe("/plans");
    expect(pathShape("/pl%61ns.data", literals)).toBe("/plans.data");
    expect(pathShape("/wp-admin/setup.php", literals)).toBe("/:/:");
  });
});

describe("the bearer token", () => {
  const token = "metrics-token-0123456789-abcdefghijklmnop";

  it("opens only with the exact token", () => {
    expect(carriesToken(token, `Bearer ${token}`)).toBe(true);
    expect(carriesToken(token, undefined)).toBe(false);
    expect(carriesToken(token, token)).toBe(false);
    expect(carriesToken(token, `Bearer ${token}x`)).toBe(false);
    expect(carriesToken(token, `Basic ${token}`)).toBe(false);
    expect(carriesToken(null, undefined)).toBe(true);
  });
});

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
});

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  servers.push(() => closeMetricsServer(server));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("GET /metrics on the public port", () => {
  it("measures each request by its route and answers the scrape, with its token", async () => {
    const metrics = createMetrics();
    const token = "metrics-token-0123456789-abcdefghijklmnop";
    const app = express();
    app.use(requestLog(pino({ level: "silent" }), metrics));
    app.get("/healthz", stepLabel(STEP_LABELS.healthz), (_req, res) => {
      res.send("ok");
    });
    app.get(
      "/metrics",
      metricsEndpoint({
        token,
        text: registryText(metrics.registry),
        logger: pino({ level: "silent" }),
      }),
    );
    app.use(labelRoute(routeLabeller(ROUTES)));
    app.get("*", (_req, res) => {
      res.status(404).send("no");
    });
    const base = await listen(app);

    await fetch(`${base}/recarga/Zk3p9QmXw2bTn4Ls8Vd1Aq?token=secret-code&correo=ana@example.com`);
    await fetch(`${base}/my-account/lineas/5512345678`);
    await fetch(`${base}/healthz`);

    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer wrong" } })).status,
    ).toBe(401);
    const scrape = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toContain("text/plain");
    const text = await scrape.text();
    expect(text).toContain(
      'storefront_http_request_duration_seconds_count{route="routes/recarga_.$id",method="GET",status_class="4xx"} 1',
    );
    expect(text).toContain(
      'storefront_http_request_duration_seconds_count{route="routes/my-account.lineas.$numero",method="GET",status_class="4xx"} 1',
    );
    expect(text).toContain(
      'storefront_http_request_duration_seconds_count{route="healthz",method="GET",status_class="2xx"} 1',
    );
    // The refused scrapes count too, under the endpoint's own name.
    expect(text).toContain(
      'storefront_http_request_duration_seconds_count{route="metrics",method="GET",status_class="4xx"} 2',
    );
    for (const personal of [
      "Zk3p9QmXw2bTn4Ls8Vd1Aq",
      "5512345678",
      "secret-code",
      "ana@example.com",
    ]) {
      expect(text).not.toContain(personal);
    }
  });
});

describe("METRICS_PORT", () => {
  it("answers GET /metrics only, with the token when there is one", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("routes/plans", "GET", 200, 0.01);
    const token = "metrics-token-0123456789-abcdefghijklmnop";
    const server = listenForMetrics({
      host: "127.0.0.1",
      port: 0,
      token,
      text: registryText(metrics.registry),
      logger: pino({ level: "silent" }),
    });
    await new Promise((resolve) => server.once("listening", resolve));
    servers.push(() => closeMetricsServer(server));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const scrape = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain(
      'storefront_http_request_duration_seconds_count{route="routes/plans",method="GET",status_class="2xx"} 1',
    );
  });
});
