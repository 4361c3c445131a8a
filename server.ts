import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import compression from "compression";
import express from "express";
import { ConfigError, loadConfig, type Config } from "./app/config.server";
import { createMetrics } from "./app/observability/metrics.server";
import { BUILD_VERSION_PATH } from "./app/lib/new-build";
import { createServices } from "./app/services.server";
import { clusterRole, processRole, runPrimary } from "./server/cluster.server";
import { readBuildCommit } from "./server/build-info";
import { buildVersion, healthz, readinessResults, readyz } from "./server/health";
import { createHtmlCaches } from "./server/html-caches";
import { createLogger } from "./server/logging";
import {
  checkFormRequests,
  languageCookie,
  publicFiles,
  refuseBrokenEscapes,
  refuseCrossSiteWrites,
  refuseHostOriginMismatch,
  redirectToPublicHost,
  refuseUnknownHosts,
  refuseUnservedMethods,
  requestLog,
  securityHeadersWithNonce,
  unhandledErrors,
} from "./server/middlewares";
import {
  closeMetricsServer,
  labelRoute,
  listenForMetrics,
  metricsEndpoint,
  registryText,
  routeLabeller,
  STEP_LABELS,
  stepLabel,
  workerMetrics,
} from "./server/metrics";
import { startDevServer } from "./server/dev-server";
import { routerHandler } from "./server/router-handler";
import { CLOSE_GRACE_MS, SHUTDOWN_GRACE_MS, shutDownGracefully } from "./server/shutdown";

// The storefront's HTTP server: the steps every request goes through, in order. Each step lives
// in server/ (the Express layer, outside the app's render path); the app itself is app/.

const here = path.dirname(fileURLToPath(import.meta.url));
// `tsx server.ts` runs from the project root; the production bundle runs from dist/.
const projectRoot = path.basename(here) === "dist" ? path.dirname(here) : here;
/** How long a client may take to send a whole request. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long an idle connection is kept open: longer than the proxies' own (60 s on most). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const role = clusterRole(config.WEB_CONCURRENCY);
const logger = createLogger(config, role);
if (role.kind === "primary") {
  // The primary serves nothing and never goes past this line: it forks the workers, which run
  // the rest of this file, and ends through process.exit (server/cluster.server.ts).
  await runPrimary({
    config,
    logger,
    workers: role.workers,
    stopGraceMs: SHUTDOWN_GRACE_MS + CLOSE_GRACE_MS + 2_000,
  });
}
/** This process's number in the health answers (null when not clustered). */
const workerIndex = role.kind === "worker" ? role.index : null;
// Measured only where the operator reads it (decision 0110): off, a request pays nothing for it.
const metrics = config.metrics.serve === "off" ? null : createMetrics({ processMetrics: true });
const services = await createServices(config, logger, processRole(role), metrics);
const buildPath = config.SERVER_BUILD_PATH
  ? path.resolve(config.SERVER_BUILD_PATH)
  : path.join(projectRoot, "build", "server", "index.js");
// `npm run dev`: the app is compiled by Vite as it is asked for, and changes reach the next request
// (the route table is read once: a new route file needs a restart).
const devServer = process.argv.includes("--dev") ? await startDevServer() : null;
const build = devServer
  ? await devServer.loadBuild()
  : ((await import(pathToFileURL(buildPath).href)) as ServerBuild);
metrics?.buildInfo({
  version: build.assets.version,
  commit: devServer ? "unknown" : readBuildCommit(projectRoot),
  node: process.version,
});
const htmlCaches = createHtmlCaches({
  config,
  services,
  routes: build.routes,
  metrics: metrics ?? undefined,
});
metrics?.watch({
  readiness: async () =>
    Object.fromEntries(
      Object.entries(await readinessResults(services.readinessChecks)).map(([check, result]) => [
        check,
        result === "ok",
      ]),
    ),
});
// Clustered, the primary adds up every worker's metrics (server/cluster.server.ts); alone, this
// process's registry is the whole answer.
const metricsText =
  metrics &&
  (role.kind === "worker" ? workerMetrics(metrics.registry) : registryText(metrics.registry));
if (metricsText && config.metrics.serve === "port" && role.kind === "single") {
  const metricsServer = listenForMetrics({ ...config.metrics, text: metricsText, logger });
  services.closers.unshift(() => closeMetricsServer(metricsServer));
}

/**
 * Other sites a form's answer may lead to: the payment provider's hosted page, and with social
 * sign-in the hosted domain (sign-out redirects there after the POST, and Chromium applies
 * `form-action` to a form's redirects). The emulator's stand-in is known once it has started.
 */
function formTargets(): readonly string[] {
  const hosted = config.SOCIAL_PROVIDERS.length > 0 ? services.identity.hostedOrigin() : null;
  const payments = services.payments.provider.pageOrigins;
  return hosted ? [...payments, hosted] : payments;
}

const app = express();
app.disable("x-powered-by");
// Only the proxies the operator named: X-Forwarded-For's first entries are the client's to write.
if (config.trustProxy !== false) app.set("trust proxy", config.trustProxy);

app.use(requestLog(logger, metrics ?? undefined));
app.use(securityHeadersWithNonce(config, formTargets));
app.use(refuseUnservedMethods(logger));
// Refused before anything reads them: malformed addresses, other hosts, other sites' forms.
app.use(refuseBrokenEscapes(logger));
if (!config.isProduction) app.use(refuseUnknownHosts(logger, config.allowedOrigins));
app.use(refuseCrossSiteWrites(logger, config.allowedOrigins));
app.use(refuseHostOriginMismatch(logger));
app.use(checkFormRequests(logger));
app.use(compression());
app.get("/healthz", stepLabel(STEP_LABELS.healthz), healthz(workerIndex));
app.get("/readyz", stepLabel(STEP_LABELS.readyz), readyz(services, config, workerIndex));
app.get(
  BUILD_VERSION_PATH,
  stepLabel(STEP_LABELS.buildVersion),
  buildVersion(build.assets.version),
);
if (metricsText && config.metrics.serve === "public") {
  app.get("/metrics", metricsEndpoint({ token: config.metrics.token, text: metricsText, logger }));
}
// After the health checks (a load balancer asks by address), before anything sets a cookie.
if (config.isProduction) app.use(redirectToPublicHost(logger, config));
if (devServer) app.use(devServer.middlewares);
// The client build sits beside the server build (build/client, build/server).
else app.use(publicFiles(path.join(path.dirname(buildPath), "..", "client")));
app.use(languageCookie(config));
// Every page and data request is measured and reported by its route, never its path.
app.use(labelRoute(routeLabeller(build.routes)));
// Pages kept in memory answer here; what React Router renders below may be kept (decision 0084).
app.use(htmlCaches.pages);
app.all(
  "*",
  routerHandler({
    build: devServer ? devServer.loadBuild : build,
    // A build made for production runs as one (errors sanitized), whatever NODE_ENV the tests set.
    mode: devServer ? "development" : "production",
    config,
    services,
    logger,
    htmlCaches,
  }),
);
app.use(unhandledErrors(logger, services.errors));

const server = app.listen(config.PORT, config.host, () => {
  logger.info({
    msg: "listening",
    host: config.host,
    port: config.PORT,
    publicOrigin: config.publicOrigin,
    env: config.NODE_ENV,
    ...(config.testDoubles.length > 0 ? { testDoubles: config.testDoubles } : {}),
  });
});
// A form is a few kilobytes: a request still arriving after this is a client holding a slot.
server.requestTimeout = REQUEST_TIMEOUT_MS;
// An idle connection is closed by the client or the proxy in front (load balancers keep theirs for
// 60 s), never by us at the moment they reuse it: Node's 5 s default made that race answer a
// request with a reset (a proxy turns it into a 502).
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
shutDownGracefully({ server, services, logger, role });
