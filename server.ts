import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { broadcastDevReady, createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { destination, pino } from "pino";
import { ConfigError, loadConfig, type Config } from "./app/config.server";
import { getFixedT } from "./app/i18n/i18n.server";
import { createRequestContext, isRedirectStatus } from "./app/lib/request-context.server";
import { withDatabaseOutagePages } from "./app/db/database-unavailable-pages.server";
import {
  FORM_BODY_LIMIT_BYTES,
  formRequestProblem,
  readsAsEmptyForm,
} from "./app/server/form-requests";
import { clientAddressKey } from "./app/server/client-address";
import { remixHeaders, sendRemixResponse } from "./app/server/express-remix.server";
import {
  PageCache,
  cartPageKey,
  pageAddressKey,
  pageAudience,
  pageCachePaths,
  pagePartsWith,
} from "./app/server/page-cache";
import {
  discardThenHangUp,
  isReadableMultipart,
  readBodyWithin,
} from "./app/server/request-body.server";
import {
  hasBrokenEscape,
  hostDiffersFromOrigin,
  isCrossSiteWrite,
  isServedHost,
  securityHeaders,
} from "./app/server/security-headers";
import {
  clusterRole,
  logBase,
  processRole,
  runPrimary,
  STOP_MESSAGE,
} from "./app/server/cluster.server";
import { createServices } from "./app/services.server";

const here = path.dirname(fileURLToPath(import.meta.url));
// `tsx server.ts` runs from the project root; the production bundle runs from dist/.
const projectRoot = path.basename(here) === "dist" ? path.dirname(here) : here;
/** How long in-flight requests may take to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How long closing the database and the identity emulator may take after that. */
const CLOSE_GRACE_MS = 5_000;
const READINESS_TIMEOUT_MS = 2_000;
/** How long a client may take to send a whole request. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long an idle connection is kept open: longer than the proxies' own (60 s on most). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Refused form bodies up to this size are read and discarded rather than cut off. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

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

// Synchronous writes with no flush at exit: pino's exit-time flush retries a write to a closed
// pipe for ever (the parent that read our output is gone), which kept the process alive after
// SIGTERM. A write stdout cannot take now (a full pipe) fails instead of waiting; the lines wait
// in a bounded buffer, and past it are dropped: logging never stalls the server or its shutdown.
const logDestination = destination({
  dest: 1,
  sync: true,
  maxLength: 4 * 1024 * 1024,
  retryEAGAIN: () => false,
});
logDestination.on("error", () => {
  // A closed or full stdout: pino already stops writing to a closed one.
});
// Opening stdout as a stream makes a pipe non-blocking, so a full one answers EAGAIN at once.
void process.stdout.writable;
const role = clusterRole(config.WEB_CONCURRENCY);
const logger = pino(
  {
    level: config.LOG_LEVEL,
    // Clustered, each line names its process: `worker` 0 is the primary, 1…N the workers.
    base: logBase(role) ?? undefined,
    // Belt and braces: request logs never carry these, but a careless log call must not either.
    redact: {
      paths: ["password", "*.password", "token", "*.token", "cookie", "*.cookie", "nip", "*.nip"],
      censor: "[oculto]",
    },
  },
  logDestination,
);
if (role.kind === "primary") {
  // The primary serves nothing and never goes past this line: it forks the workers, which run
  // the rest of this file, and ends through process.exit (app/server/cluster.server.ts).
  await runPrimary({
    config,
    logger,
    workers: role.workers,
    stopGraceMs: SHUTDOWN_GRACE_MS + CLOSE_GRACE_MS + 2_000,
  });
}
/** This process's number in the health answers (null when not clustered). */
const workerIndex = role.kind === "worker" ? role.index : null;
const services = await createServices(config, logger, processRole(role));
const buildPath = config.SERVER_BUILD_PATH
  ? path.resolve(config.SERVER_BUILD_PATH)
  : path.join(projectRoot, "build", "index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;

const app = express();
app.disable("x-powered-by");
// Only the proxies the operator named: X-Forwarded-For's first entries are the client's to write.
if (config.trustProxy !== false) app.set("trust proxy", config.trustProxy);

const { allowedOrigins } = config;

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

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const requestId = (req.get("x-request-id") ?? "").slice(0, 64) || randomUUID();
  const nonce = randomBytes(16).toString("base64");
  res.locals.requestId = requestId;
  res.locals.cspNonce = nonce;
  res.set("X-Request-Id", requestId);
  res.set(
    securityHeaders({
      nonce,
      isProduction: config.isProduction,
      isDevelopment: config.NODE_ENV === "development",
      formTargets: formTargets(),
    }),
  );
  res.on("finish", () => {
    // Path only: query strings, cookies and bodies can hold personal data or secrets.
    logger.info({
      msg: "request",
      requestId,
      method: req.method,
      path: req.path,
      status: res.statusCode,
      durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      // Whether the page came from memory: how an operator sees the page caches at work.
      ...(res.locals.pageCacheHit === true ? { pageCache: "hit" } : {}),
    });
  });
  next();
});

// A broken % escape names no page; left to Express and Remix, decoding it throws (a 500).
app.use((req, res, next) => {
  if (!hasBrokenEscape(req.path)) return next();
  logger.info({ msg: "malformed address refused", requestId: res.locals.requestId });
  res.status(400).type("text/plain; charset=utf-8").send(getFixedT()("errors.badRequest"));
});

if (!config.isProduction) {
  // Only this machine's names for the site (decision 0059): no DNS rebinding onto the outbox.
  app.use((req, res, next) => {
    if (isServedHost(req.get("host"), allowedOrigins)) return next();
    logger.warn({ msg: "unknown host refused", requestId: res.locals.requestId });
    res.status(421).type("text/plain; charset=utf-8").send(getFixedT()("errors.unknownHost"));
  });
}

app.use((req, res, next) => {
  const crossSite = isCrossSiteWrite({
    method: req.method,
    origin: req.get("origin"),
    secFetchSite: req.get("sec-fetch-site"),
    allowedOrigins,
  });
  if (!crossSite) return next();
  logger.warn({ msg: "cross-site write refused", requestId: res.locals.requestId, path: req.path });
  res.status(403).type("text/plain; charset=utf-8").send(getFixedT()("errors.crossSiteForm"));
});

app.use((req, res, next) => {
  const differs = hostDiffersFromOrigin({
    method: req.method,
    origin: req.get("origin"),
    host: req.get("host"),
    forwardedHost: req.get("x-forwarded-host"),
  });
  if (!differs) return next();
  logger.info({ msg: "host and origin differ: form refused", requestId: res.locals.requestId });
  res.status(400).type("text/plain; charset=utf-8").send(getFixedT()("errors.hostMismatch"));
});

app.use((req, res, next) => {
  const formRequest = {
    method: req.method,
    path: req.path,
    contentType: req.get("content-type"),
    contentLength: req.get("content-length"),
    transferEncoding: req.get("transfer-encoding"),
  };
  const problem = formRequestProblem(formRequest);
  if (!problem) {
    if (readsAsEmptyForm(formRequest)) {
      req.headers["content-type"] = "application/x-www-form-urlencoded";
    }
    return next();
  }
  logger.info({
    msg: "form request refused",
    requestId: res.locals.requestId,
    status: problem.status,
  });
  // Node discards an unread body so that the client gets this answer; a very large one is cut
  // off instead, at the cost of that client perhaps seeing a reset rather than the message.
  if (Number(req.get("content-length") ?? 0) > DRAIN_LIMIT_BYTES) res.set("Connection", "close");
  res.status(problem.status).type("text/plain; charset=utf-8").send(getFixedT()(problem.key));
});

app.use(compression());

app.get("/healthz", (_req, res) => {
  res.set("Cache-Control", "no-store").json({
    status: "ok",
    uptimeSeconds: Math.round(process.uptime()),
    ...(workerIndex === null ? {} : { worker: workerIndex }),
  });
});

app.get("/readyz", async (_req, res) => {
  const results: Record<string, string> = {};
  let ready = true;
  await Promise.all(
    Object.entries(services.readinessChecks).map(async ([name, check]) => {
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error("timeout")), READINESS_TIMEOUT_MS),
          ),
        ]);
        results[name] = "ok";
      } catch (error) {
        ready = false;
        results[name] = error instanceof Error ? error.message : "error";
      }
    }),
  );
  res
    .status(ready ? 200 : 503)
    .set("Cache-Control", "no-store")
    .json({
      status: ready ? "ready" : "unavailable",
      ...(workerIndex === null ? {} : { worker: workerIndex }),
      checks: results,
      // Stand-ins for real services: a production server runs on them only by the operator's choice.
      testDoubles: config.testDoubles,
      testEnvironment: config.isTestEnvironment,
      // Delayed e-mails do not make the store unready: customers can still buy. Unknown (null)
      // while the database does not answer, which the database check already reports.
      mail: await services.mailer.stats().catch(() => null),
    });
});

const publicDir = path.join(projectRoot, "public");
// Fingerprinted bundles never change under the same name.
app.use("/build", express.static(path.join(publicDir, "build"), { immutable: true, maxAge: "1y" }));
app.use("/locales", express.static(path.join(publicDir, "locales"), { maxAge: "24h" }));
const publicFiles = express.static(publicDir, { maxAge: "1h" });
// Only paths that look like files reach the disk: pages skip a useless stat per request.
app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

const I18N_COOKIE = "i18n_redirected";
app.use((req, res, next) => {
  if (req.method === "GET" && !(req.get("cookie") ?? "").includes(`${I18N_COOKIE}=`)) {
    res.append(
      "Set-Cookie",
      `${I18N_COOKIE}=es; Path=/; Max-Age=31536000; SameSite=Lax${config.isProduction ? "; Secure" : ""}`,
    );
  }
  next();
});

/**
 * A page made for anyone may be stored by a browser or a shared cache, but asked for again every
 * time (decision 0079): its URL does not say whether the request carried a session or a cart, and
 * each answer has its own script nonce. This server's memory answers the repeats.
 */
const FOR_ANYONE = "no-cache";

const pageCacheOptions = {
  ttlMs: config.PAGE_CACHE_SECONDS * 1000,
  maxBodyBytes: 256 * 1024,
};
const pageCache =
  config.PAGE_CACHE_SECONDS > 0 ? new PageCache({ ...pageCacheOptions, maxEntries: 200 }) : null;
// Pages as each cart's holder sees them: kept apart, so that many carts never push out the pages
// every visitor gets.
const cartPageCache =
  config.PAGE_CACHE_SECONDS > 0 ? new PageCache({ ...pageCacheOptions, maxEntries: 100 }) : null;
// The form-key secret is left out: no page shows anything of it, and a page that issues a key
// (the only one that reads it) is never kept whole. A visitor who once opened a form keeps
// getting the pages made for anyone.
const appCookieNames = Object.values(services.cookies)
  .filter((cookie) => cookie !== services.cookies.formKeys)
  .map((cookie) => cookie.name);
/** The paths these caches may answer, with the query parameters each page reads (decision 0079). */
const cachedPagePaths = pageCachePaths(build.routes);

/**
 * Who the page is for, and the cache and key it may be answered from (none: rendered for one).
 * The key holds only the query parameters the page reads: `/?utm_source=x` is answered with `/`.
 * A page is stored only when rendered for its exact address (`storable`).
 */
function pageCacheSlot(req: express.Request) {
  const audience = pageAudience({
    method: req.method,
    path: req.path,
    cookieHeader: req.get("cookie"),
    hasAuthorization: req.get("authorization") !== undefined,
    appCookieNames,
    cartCookieName: services.cookies.cart.name,
  });
  const readQuery = cachedPagePaths.get(req.path);
  const none = { audience, cache: null, key: "", storable: false, variantOf: undefined };
  if (!readQuery) return none;
  const { key, exact, variantOf } = pageAddressKey(req.originalUrl, readQuery);
  if (audience === "anyone") return { audience, cache: pageCache, key, storable: exact, variantOf };
  if (audience === "cart-holder" && cartPageCache) {
    // Opened here with the same sealed cookie the loaders read; a cart it cannot open (expired,
    // tampered) is rendered, so that the page clears it.
    const items = services.cookies.cart.read(req.get("cookie") ?? null);
    if (items && items.length > 0) {
      const cartKey = cartPageKey(key, items);
      return { audience, cache: cartPageCache, key: cartKey, storable: exact, variantOf };
    }
  }
  return none;
}

app.use((req, res, next) => {
  const { audience, cache, key, storable, variantOf } = pageCacheSlot(req);
  // A request carrying none of the app's cookies gets a page made for nobody in particular.
  res.locals.forNobodyInParticular = audience === "anyone";
  if (!cache) return next();
  const nonce = res.locals.cspNonce as string;
  const cached = cache.get(key);
  if (cached) {
    res.locals.pageCacheHit = true;
    res.status(cached.status).set("Content-Type", cached.contentType);
    res.set("Cache-Control", res.locals.forNobodyInParticular ? FOR_ANYONE : "private, no-store");
    const parts = pagePartsWith(cached, [nonce]);
    res.set("Content-Length", String(parts.reduce((length, part) => length + part.length, 0)));
    // Not corked: compression writes the gzip of these parts later, and from a corked socket that
    // never drains (a kept page over 16 KB compressed never arrived).
    for (const part of parts) res.write(part);
    res.end();
    return;
  }
  // Rendered for another spelling of a kept page's address (a junk query parameter): not kept.
  if (!storable) return next();
  // Keep a copy of what Remix writes; stored only if the page turns out to be cacheable.
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
  const keep = (chunk: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== "function") keep(chunk);
    const contentType = String(res.getHeader("content-type") ?? "");
    if (
      res.locals.pageCacheAllowed === true &&
      res.statusCode === 200 &&
      contentType.startsWith("text/html") &&
      !hasAppSetCookie(res.getHeader("set-cookie"))
    ) {
      cache.store(
        key,
        { status: 200, contentType, body: Buffer.concat(chunks), perAnswer: [nonce] },
        variantOf,
      );
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
});

/** A response that sets one of the app's cookies was made for one visitor only. */
function hasAppSetCookie(header: number | string | string[] | undefined): boolean {
  const lines = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  return lines.some((line) => !line.startsWith(`${I18N_COOKIE}=`));
}

// A page whose loader finds the database unavailable answers 503 "try again", never a 500.
const handleRemixRequest = createRequestHandler(withDatabaseOutagePages(build), build.mode);

/**
 * The body of a write, read here within the form limit for every route (decision 0060); undefined
 * for a read. When the body is refused, the answer is already sent and this resolves to null.
 */
async function readRequestBody(
  req: express.Request,
  res: express.Response,
): Promise<Buffer<ArrayBuffer> | undefined | null> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const t = getFixedT();
  let body: Awaited<ReturnType<typeof readBodyWithin>>;
  try {
    body = await readBodyWithin(req, FORM_BODY_LIMIT_BYTES);
  } catch {
    // The client went away while sending: nobody is left to answer.
    logger.info({ msg: "request body cut off by the client", requestId: res.locals.requestId });
    res.destroy();
    return null;
  }
  if (body === "too-large") {
    logger.info({ msg: "body over the limit", requestId: res.locals.requestId });
    res.status(413).type("text/plain; charset=utf-8").send(t("errors.formTooLarge"));
    // The rest is never kept: discarded for a moment, then the connection is closed.
    discardThenHangUp(req);
    return null;
  }
  const contentType = req.get("content-type") ?? "";
  if (
    /^multipart\/form-data/i.test(contentType) &&
    !(await isReadableMultipart(body, contentType))
  ) {
    logger.info({ msg: "malformed form refused", requestId: res.locals.requestId });
    res.status(400).type("text/plain; charset=utf-8").send(t("errors.malformedForm"));
    return null;
  }
  return body;
}

app.all("*", async (req, res, next) => {
  try {
    // A path only: an absolute-form request target names a host of the client's choosing.
    if (!req.originalUrl.startsWith("/")) {
      res.status(400).type("text/plain; charset=utf-8").send(getFixedT()("errors.badRequest"));
      return;
    }
    const body = await readRequestBody(req, res);
    if (body === null) return;
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    // A form (or a provider's notification) may have queued an e-mail: send it now rather than
    // at the next poll. Pages are left to the poll: they rarely queue one, and are many.
    if (req.method === "POST") res.on("finish", () => services.mailer.nudge());
    // The URL's origin is the configured one, never the Host header's (decision 0058).
    const request = new Request(`${config.publicOrigin}${req.originalUrl}`, {
      method: req.method,
      headers: remixHeaders(req.headers),
      body,
      signal: controller.signal,
    });
    const context = await createRequestContext(services, {
      cookieHeader: req.get("cookie") ?? null,
      cspNonce: res.locals.cspNonce as string,
      requestId: res.locals.requestId as string,
      clientAddressKey: clientAddressKey(
        req.ip ?? req.socket.remoteAddress,
        config.RATE_LIMIT_IPV6_PREFIX,
      ),
      setPageCacheable: (cacheable) => {
        res.locals.pageCacheAllowed = cacheable;
      },
    });
    const response = await handleRemixRequest(request, context);
    const redirect = isRedirectStatus(response.status);
    for (const cookie of context.jar.setCookieHeaders({ redirect })) {
      res.append("Set-Cookie", cookie);
    }
    // What was rendered for one visitor stays with that visitor: only a page of a route without
    // anything personal, for a request without the app's cookies, may be kept (decision 0060).
    const forAnyone =
      res.locals.forNobodyInParticular === true && res.locals.pageCacheAllowed === true;
    if (!response.headers.has("Cache-Control")) {
      res.set("Cache-Control", forAnyone ? FOR_ANYONE : "private, no-store");
    }
    await sendRemixResponse(res, response);
  } catch (error) {
    next(error);
  }
});

// Anything thrown past the routes: logged with its stack in the JSON log, and a plain Spanish page
// for the customer, never Express's own page with the stack in it.
app.use(
  (error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    logger.error({ err: error, requestId: res.locals.requestId }, "unhandled server error");
    if (res.headersSent) return next(error);
    res
      .status(500)
      .type("text/plain; charset=utf-8")
      .send(getFixedT()("errors.serverErrorMessage"));
  },
);

const server = app.listen(config.PORT, config.host, () => {
  logger.info({
    msg: "listening",
    host: config.host,
    port: config.PORT,
    publicOrigin: config.publicOrigin,
    env: config.NODE_ENV,
    ...(config.testDoubles.length > 0 ? { testDoubles: config.testDoubles } : {}),
  });
  // Only under `remix dev`, which sets REMIX_DEV_ORIGIN to learn when the new build is served.
  if (process.env.REMIX_DEV_ORIGIN) broadcastDevReady(build);
});

// A form is a few kilobytes: a request still arriving after this is a client holding a slot.
server.requestTimeout = REQUEST_TIMEOUT_MS;
// An idle connection is closed by the client or the proxy in front (load balancers keep theirs for
// 60 s), never by us at the moment they reuse it: Node's 5 s default made that race answer a
// request with a reset (a proxy turns it into a 502).
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

let shuttingDown = false;
function shutdown(signal: string) {
  if (shuttingDown) {
    // A second signal: the operator wants it gone now.
    logger.warn({ msg: "second signal: exiting at once", signal });
    process.exit(1);
  }
  shuttingDown = true;
  logger.info({ msg: "shutting down", signal });
  // Whatever hangs (a request, a closer), the process ends by then.
  setTimeout(() => {
    logger.error({ msg: "shutdown did not finish in time; exiting" });
    process.exit(1);
  }, SHUTDOWN_GRACE_MS + CLOSE_GRACE_MS).unref();
  const forced = setTimeout(() => {
    logger.warn({ msg: "in-flight requests did not finish in time; closing connections" });
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  forced.unref();
  server.close(async () => {
    clearTimeout(forced);
    for (const close of services.closers) {
      try {
        await close();
      } catch (error) {
        logger.error({ err: error, msg: "error while closing a resource" });
      }
    }
    logger.info({ msg: "stopped" });
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
if (role.kind === "worker") {
  // The primary's stop, or the primary gone (killed): the same graceful shutdown, once.
  process.on("message", (message: { type?: unknown } | null) => {
    if (message?.type === STOP_MESSAGE && !shuttingDown) shutdown("primary stop");
  });
  process.on("disconnect", () => {
    if (!shuttingDown) shutdown("primary gone");
  });
}
