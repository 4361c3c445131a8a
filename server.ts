import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { pino } from "pino";
import { refreshSessionIfDue } from "./app/auth/session.server";
import { ConfigError, loadConfig, type Config } from "./app/config.server";
import { getFixedT } from "./app/i18n/i18n.server";
import { formRequestProblem, readsAsEmptyForm } from "./app/server/form-requests";
import { PageCache, isCacheablePageRequest, pageWithNonce } from "./app/server/page-cache";
import { isCrossSiteWrite, securityHeaders } from "./app/server/security-headers";
import { createServices } from "./app/services.server";

const here = path.dirname(fileURLToPath(import.meta.url));
// `tsx server.ts` runs from the project root; the production bundle runs from dist/.
const projectRoot = path.basename(here) === "dist" ? path.dirname(here) : here;
const SHUTDOWN_GRACE_MS = 10_000;
const READINESS_TIMEOUT_MS = 2_000;
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

const logger = pino({
  level: config.LOG_LEVEL,
  base: undefined,
  // Belt and braces: request logs never carry these, but a careless log call must not either.
  redact: {
    paths: ["password", "*.password", "token", "*.token", "cookie", "*.cookie", "nip", "*.nip"],
    censor: "[oculto]",
  },
});
const services = await createServices(config, logger);
const buildPath = config.SERVER_BUILD_PATH
  ? path.resolve(config.SERVER_BUILD_PATH)
  : path.join(projectRoot, "build", "index.js");
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;

const app = express();
app.disable("x-powered-by");
if (config.TRUST_PROXY) app.set("trust proxy", true);

const allowedOrigins = config.PUBLIC_BASE_URL ? [new URL(config.PUBLIC_BASE_URL).origin] : [];

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
    });
  });
  next();
});

app.use((req, res, next) => {
  const crossSite = isCrossSiteWrite({
    method: req.method,
    origin: req.get("origin"),
    host: req.get("host"),
    allowedOrigins,
  });
  if (!crossSite) return next();
  logger.warn({ msg: "cross-site write refused", requestId: res.locals.requestId, path: req.path });
  res.status(403).type("text/plain; charset=utf-8").send(getFixedT()("errors.crossSiteForm"));
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
  res
    .set("Cache-Control", "no-store")
    .json({ status: "ok", uptimeSeconds: Math.round(process.uptime()) });
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
    .json({ status: ready ? "ready" : "unavailable", checks: results });
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

// Tokens near expiry are refreshed once, before any loader reads them.
app.use(async (req, res, next) => {
  try {
    const refreshed = await refreshSessionIfDue(services, req.get("cookie") ?? null);
    if (refreshed) {
      for (const cookie of refreshed.setCookies) res.append("Set-Cookie", cookie);
      req.headers.cookie = refreshed.cookieHeader;
    }
    next();
  } catch (error) {
    next(error);
  }
});

const pageCache =
  config.PAGE_CACHE_SECONDS > 0
    ? new PageCache({
        ttlMs: config.PAGE_CACHE_SECONDS * 1000,
        maxEntries: 200,
        maxBodyBytes: 256 * 1024,
      })
    : null;
const appCookieNames = Object.values(services.cookies).map((cookie) => cookie.name);

app.use((req, res, next) => {
  if (
    !pageCache ||
    !isCacheablePageRequest({
      method: req.method,
      path: req.path,
      cookieHeader: req.get("cookie"),
      hasAuthorization: req.get("authorization") !== undefined,
      appCookieNames,
    })
  ) {
    return next();
  }
  const key = req.originalUrl;
  const nonce = res.locals.cspNonce as string;
  const cached = pageCache.get(key);
  if (cached) {
    res.status(cached.status).set("Content-Type", cached.contentType);
    res.end(pageWithNonce(cached, nonce));
    return;
  }
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
      pageCache.store(key, {
        status: 200,
        contentType,
        body: Buffer.concat(chunks),
        nonce,
      });
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

app.all(
  "*",
  createRequestHandler({
    build,
    mode: build.mode,
    getLoadContext: (req, res): AppLoadContext => ({
      ...services,
      cspNonce: res.locals.cspNonce as string,
      requestId: res.locals.requestId as string,
      clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      setPageCacheable: (cacheable) => {
        res.locals.pageCacheAllowed = cacheable;
      },
    }),
  }),
);

const server = app.listen(config.PORT, config.HOST, () => {
  logger.info({ msg: "listening", url: `http://localhost:${config.PORT}`, env: config.NODE_ENV });
  // Only under `remix dev`, which sets REMIX_DEV_ORIGIN to learn when the new build is served.
  if (process.env.REMIX_DEV_ORIGIN) broadcastDevReady(build);
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ msg: "shutting down", signal });
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
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
