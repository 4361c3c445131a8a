import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { type ServerBuild, matchRoutes } from "react-router";
import type express from "express";
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import { AggregatorRegistry, type Registry } from "prom-client";
import { pagePathOf } from "~/lib/data-requests";

/**
 * GET /metrics (decision 0110): where it is served, who may read it, and the route label of
 * every request. The metrics themselves are app/observability/metrics.server.ts.
 */

/** The route label of answers that no route of the app gave (server.ts's own steps). */
export const STEP_LABELS = {
  /** Refused before any route was looked for: a malformed address, another site's form… */
  unrouted: "unrouted",
  static: "static",
  healthz: "healthz",
  readyz: "readyz",
  metrics: "metrics",
  /** The build an open tab compares with its own (decision 0108). */
  buildVersion: "build-version",
  /** React Router's route manifest for client navigations (`/__manifest`). */
  manifest: "remix-manifest",
} as const;

type RouteObject = Parameters<typeof matchRoutes>[0][number];

/** Paths remembered with their route: the common ones are asked for again and again. */
const REMEMBERED_PATHS = 1_000;
/** Path shapes remembered with their route (there are few: a bot's random paths share them). */
const REMEMBERED_SHAPES = 1_000;

/**
 * The route id (e.g. `routes/recarga_.$id`) that answers a path, as React Router matches it: never the
 * path itself, which may hold a receipt's key or a line's number. A `.data` request (single
 * fetch) is its page's route; a path no route matches is the catch-all's (`routes/$`).
 *
 * The router's match costs tens of microseconds (it ranks every route each time), so answers are
 * remembered by path and by the path's shape: each segment that is no route's literal segment
 * stands for any value (`/recarga/:`), and two paths of one shape match the same route, whatever
 * those values are. A receipt's address, or a scanner's random paths, reuse a shape already seen.
 */
export function routeLabeller(routes: ServerBuild["routes"]): (path: string) => string {
  const tree = routeTree(routes);
  const literals = literalSegments(routes);
  const byPath = new LRUCache<string, string>({ max: REMEMBERED_PATHS });
  const byShape = new LRUCache<string, string>({ max: REMEMBERED_SHAPES });
  return (path) => {
    let label = byPath.get(path);
    if (label !== undefined) return label;
    const shape = pathShape(path, literals);
    label = byShape.get(shape);
    if (label === undefined) {
      label = matchedRoute(tree, path);
      byShape.set(shape, label);
    }
    byPath.set(path, label);
    return label;
  };
}

/** Every literal segment of the routes' paths, in lower case (routes match without case). */
function literalSegments(routes: ServerBuild["routes"]): Set<string> {
  const literals = new Set<string>(["__manifest", "_"]);
  for (const route of Object.values(routes)) {
    for (const segment of (route?.path ?? "").split("/")) {
      if (segment && !segment.startsWith(":") && segment !== "*") {
        literals.add(segment.replace(/\?$/, "").toLowerCase());
      }
    }
  }
  return literals;
}

/**
 * The path with every segment that is no literal of a route written `:`, and `.data` kept apart:
 * what decides which route matches. A segment is compared decoded, as the router compares it.
 */
export function pathShape(path: string, literals: ReadonlySet<string>): string {
  const data = path.endsWith(".data");
  const page = data ? path.slice(0, -5) : path;
  const shape = page.split("/").map((segment) => {
    if (segment === "") return "";
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Left as it is: the router does the same.
    }
    const folded = decoded.toLowerCase();
    return literals.has(folded) ? folded : ":";
  });
  return `${shape.join("/")}${data ? ".data" : ""}`;
}

function matchedRoute(tree: RouteObject[], path: string): string {
  const page = pagePathOf(path);
  if (page === "/__manifest") return STEP_LABELS.manifest;
  const matches = matchRoutes(tree, page);
  return matches?.[matches.length - 1]?.route.id ?? STEP_LABELS.unrouted;
}

/** The build's flat route list as the nested tree the router matches, as React Router builds it. */
function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route !== undefined && route.parentId === parentId)
    .map((route) => {
      const children = routeTree(routes, route!.id);
      return {
        id: route!.id,
        path: route!.path,
        index: route!.index,
        caseSensitive: route!.caseSensitive,
        ...(children.length > 0 ? { children } : {}),
      } as RouteObject;
    });
}

/** Sets the route label of the requests that reach it. */
export function labelRoute(labelOf: (path: string) => string): express.RequestHandler {
  return (req, res, next) => {
    res.locals.metricsRoute = labelOf(req.path);
    next();
  };
}

/** Names the request after a step of the server (`healthz`, `static`…). */
export function stepLabel(label: string): express.RequestHandler {
  return (_req, res, next) => {
    res.locals.metricsRoute = label;
    next();
  };
}

/** The exposition text and its content type. */
export type MetricsText = () => Promise<{ contentType: string; body: string }>;

export function registryText(registry: Registry): MetricsText {
  return async () => ({ contentType: registry.contentType, body: await registry.metrics() });
}

/**
 * Whether the request carries the token (`Authorization: Bearer <token>`), compared as SHA-256
 * digests in constant time. No token configured: anyone who reaches the endpoint.
 */
export function carriesToken(token: string | null, authorization: string | undefined): boolean {
  if (token === null) return true;
  const match = /^Bearer (\S+)$/.exec(authorization ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** GET /metrics on the public port: with the token when one is configured. */
export function metricsEndpoint(options: {
  token: string | null;
  text: MetricsText;
  logger: Pick<Logger, "warn">;
}): express.RequestHandler {
  return async (req, res) => {
    res.locals.metricsRoute = STEP_LABELS.metrics;
    res.set("Cache-Control", "no-store");
    if (!carriesToken(options.token, req.get("authorization"))) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain");
      res.send("unauthorized\n");
      return;
    }
    try {
      const { contentType, body } = await options.text();
      res.type(contentType).send(body);
    } catch (error) {
      options.logger.warn({
        msg: "metrics not gathered",
        requestId: res.locals.requestId,
        reason: error instanceof Error ? error.message : "unknown",
      });
      res.status(503).type("text/plain").send("metrics unavailable\n");
    }
  };
}

/**
 * METRICS_PORT: a server of its own that answers only GET /metrics (with the token when one is
 * configured), on METRICS_HOST: never reached through the public port or its proxy.
 */
export function listenForMetrics(options: {
  host: string;
  port: number;
  token: string | null;
  text: MetricsText;
  logger: Pick<Logger, "info" | "warn" | "error">;
}): http.Server {
  const { logger } = options;
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    if (!carriesToken(options.token, req.headers.authorization)) {
      res
        .writeHead(401, {
          "Content-Type": "text/plain",
          "WWW-Authenticate": 'Bearer realm="metrics"',
        })
        .end("unauthorized\n");
      return;
    }
    try {
      const { contentType, body } = await options.text();
      res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body);
    } catch (error) {
      logger.warn({
        msg: "metrics not gathered",
        reason: error instanceof Error ? error.message : "unknown",
      });
      res.writeHead(503, { "Content-Type": "text/plain" }).end("metrics unavailable\n");
    }
  });
  server.on("error", (error) => {
    logger.error({ err: error, msg: "metrics port unavailable", port: options.port });
  });
  server.listen(options.port, options.host, () => {
    logger.info({ msg: "metrics listening", host: options.host, port: options.port });
  });
  return server;
}

/** Closes a metrics server, dropping the scraper's kept-alive connection. */
export function closeMetricsServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const METRICS_REQUEST = "storefront:metrics-request";
const METRICS_ANSWER = "storefront:metrics-answer";
/** Longer than prom-client's own wait for every worker's answer (5 s). */
const CLUSTER_WAIT_MS = 6_000;

/**
 * A worker's side of the cluster's metrics: it answers the primary's gathering with its registry
 * (prom-client's AggregatorRegistry), and a scrape of /metrics on the public port, which one
 * worker takes, is answered with every worker's metrics added up by the primary.
 */
export function workerMetrics(registry: Registry): MetricsText {
  AggregatorRegistry.setRegistries([registry]);
  // Constructed in a worker, it answers the primary's requests for this worker's metrics.
  new AggregatorRegistry();
  let nextId = 0;
  const waiting = new Map<
    number,
    { resolve: (answer: { contentType: string; body: string }) => void; reject: (e: Error) => void }
  >();
  process.on(
    "message",
    (
      message: {
        type?: unknown;
        id?: number;
        contentType?: string;
        body?: string;
        error?: string;
      } | null,
    ) => {
      if (message?.type !== METRICS_ANSWER || message.id === undefined) return;
      const request = waiting.get(message.id);
      if (!request) return;
      waiting.delete(message.id);
      if (message.error !== undefined || message.body === undefined) {
        request.reject(new Error(message.error ?? "no metrics"));
      } else {
        request.resolve({ contentType: message.contentType ?? "text/plain", body: message.body });
      }
    },
  );
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("the primary did not answer"));
      }, CLUSTER_WAIT_MS);
      waiting.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      process.send?.({ type: METRICS_REQUEST, id });
    });
}

/**
 * The primary's side: it gathers every worker's metrics into one exposition, for a worker that
 * was scraped on the public port and, with METRICS_PORT, on its own port.
 */
export function primaryMetrics(): MetricsText {
  const aggregator = new AggregatorRegistry();
  const text: MetricsText = async () => ({
    contentType: aggregator.contentType,
    body: await aggregator.clusterMetrics(),
  });
  cluster.on("message", (worker, message: { type?: unknown; id?: unknown } | null) => {
    if (message?.type !== METRICS_REQUEST || typeof message.id !== "number") return;
    const id = message.id;
    text().then(
      ({ contentType, body }) => {
        if (worker.isConnected()) worker.send({ type: METRICS_ANSWER, id, contentType, body });
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : "unknown";
        if (worker.isConnected()) worker.send({ type: METRICS_ANSWER, id, error: reason });
      },
    );
  });
  return text;
}
