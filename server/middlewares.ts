import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import express from "express";
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import { getFixedT } from "~/i18n/i18n.server";
import { isDataPath } from "~/lib/data-requests";
import type { ErrorReporter } from "~/observability/error-reporter";
import { methodLabel, type Metrics } from "~/observability/metrics.server";
import { formRequestProblem, readsAsEmptyForm } from "./form-requests";
import { STEP_LABELS } from "./metrics";
import {
  hasBrokenEscape,
  hostDiffersFromOrigin,
  isCrossSiteWrite,
  isServedHost,
  publicHostAnswer,
  securityHeaders,
} from "./security-headers";

// The small Express steps server.ts lists in order, each on a rule tested on its own
// (security-headers.ts, form-requests.ts).

/** Refused form bodies up to this size are read and discarded rather than cut off. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

/** A plain Spanish answer from the common namespace, never Express's own page. */
function refuse(res: express.Response, status: number, key: string) {
  res.status(status).type("text/plain; charset=utf-8").send(getFixedT()(key));
}

/** A digit or "+" spelled as a percent escape (`%35`, `%2B`): read as itself before masking. */
const ESCAPED_DIGIT_OR_PLUS = /%(3[0-9]|2[bB])/g;
/** Ten digits or more in a row: a line's number, alone or after its country's 52. */
const LONG_NUMBER = /(?<!\d)(\d{2})\d{4,}(\d{4})(?!\d)/g;

/** A "no fui yo" link's token (decision 0136): whoever holds it may dispute a registration. */
const NOTICE_TOKEN = /^(\/no-fui-yo\/)[^/]+/;

/**
 * The path as the log lines keep it: a line's number in it (`/my-account/lineas/<número>`) is
 * masked as the pages mask one, so the log tells which page without telling whose line. So is a
 * number written `+52…`, or with its digits percent-escaped (`/%35%35…`), which name the same page.
 * A link's token in the path is left out whole.
 */
export function loggedPath(path: string): string {
  return path
    .replace(NOTICE_TOKEN, "$1••••")
    .replace(ESCAPED_DIGIT_OR_PLUS, (_escape, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    )
    .replace(LONG_NUMBER, "$1••••$2");
}

/**
 * What a request may call itself (X-Request-Id, from a proxy in front that names requests): a
 * short token that a log line, a header and an error report carry as it is. Anything else (a
 * line break, a number, a page of text) is replaced by an id of our own.
 */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Every answer names its request (X-Request-Id) and is logged once, path only, when finished; it
 * is measured then too, by its route's label (server/metrics.ts), never its path (decision 0110).
 */
export function requestLog(
  logger: Logger,
  metrics?: Pick<Metrics, "observeRequest">,
): express.RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req.get("x-request-id"));
    res.locals.requestId = requestId;
    res.set("X-Request-Id", requestId);
    res.on("finish", () => {
      const elapsedNs = process.hrtime.bigint() - started;
      metrics?.observeRequest(
        (res.locals.metricsRoute as string | undefined) ?? STEP_LABELS.unrouted,
        req.method,
        res.statusCode,
        Number(elapsedNs) / 1e9,
      );
      // Path only: query strings, cookies and bodies can hold personal data or secrets.
      logger.info({
        msg: "request",
        requestId,
        method: req.method,
        path: loggedPath(req.path),
        status: res.statusCode,
        durationMs: Number(elapsedNs / 1000n) / 1000,
        // Whether the page came from memory: how an operator sees the page caches at work.
        ...(res.locals.pageCacheHit === true ? { pageCache: "hit" } : {}),
      });
    });
    next();
  };
}

/** This answer's CSP nonce and the security headers that carry it (decision 0005). */
export function securityHeadersWithNonce(
  config: Pick<Config, "isProduction" | "NODE_ENV">,
  formTargets: () => readonly string[],
): express.RequestHandler {
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.set(
      securityHeaders({
        nonce,
        isProduction: config.isProduction,
        isDevelopment: config.NODE_ENV === "development",
        formTargets: formTargets(),
      }),
    );
    next();
  };
}

/** The methods some route answers: pages and data (GET, HEAD) and forms and notifications (POST). */
export const SERVED_METHODS = ["GET", "HEAD", "POST"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/**
 * Any other method (TRACE, OPTIONS, PUT, PROPFIND…) is the client's mistake: 405 naming the
 * served ones, logged at info, never an error report. Left to React Router, TRACE made `new Request`
 * throw (a 500 with a stack and a report) and the others met its error page.
 */
export function refuseUnservedMethods(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    if (SERVED.has(req.method)) return next();
    logger.info({
      msg: "method not allowed",
      requestId: res.locals.requestId,
      method: req.method.slice(0, 16),
    });
    res.set("Allow", SERVED_METHODS.join(", "));
    refuse(res, 405, "errors.methodNotAllowed");
  };
}

/** A broken % escape names no page; left to Express and React Router, decoding it throws (a 500). */
export function refuseBrokenEscapes(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    if (!hasBrokenEscape(req.path)) return next();
    logger.info({ msg: "malformed address refused", requestId: res.locals.requestId });
    refuse(res, 400, "errors.badRequest");
  };
}

/** Only this machine's names for the site (decision 0059): no DNS rebinding onto the outbox. */
export function refuseUnknownHosts(
  logger: Logger,
  allowedOrigins: string[],
): express.RequestHandler {
  return (req, res, next) => {
    if (isServedHost(req.get("host"), allowedOrigins)) return next();
    logger.warn({ msg: "unknown host refused", requestId: res.locals.requestId });
    refuse(res, 421, "errors.unknownHost");
  };
}

/** In production, other names of the site lead to PUBLIC_BASE_URL's (decision 0103). */
export function redirectToPublicHost(
  logger: Logger,
  config: Pick<Config, "publicOrigin" | "trustProxy">,
): express.RequestHandler {
  return (req, res, next) => {
    const answer = publicHostAnswer({
      method: req.method,
      host: req.get("host"),
      forwardedHost: req.get("x-forwarded-host"),
      trustsProxy: config.trustProxy !== false,
      publicOrigin: config.publicOrigin,
      url: req.originalUrl,
    });
    if (answer === null) return next();
    logger.info({ msg: "other host name", requestId: res.locals.requestId, status: answer.status });
    if (answer.status === 421) return refuse(res, 421, "errors.unknownHost");
    res.redirect(301, answer.location);
  };
}

/** A form sent from another site (decision 0005). */
export function refuseCrossSiteWrites(
  logger: Logger,
  allowedOrigins: string[],
): express.RequestHandler {
  return (req, res, next) => {
    const crossSite = isCrossSiteWrite({
      method: req.method,
      origin: req.get("origin"),
      secFetchSite: req.get("sec-fetch-site"),
      allowedOrigins,
    });
    if (!crossSite) return next();
    logger.warn({
      msg: "cross-site write refused",
      requestId: res.locals.requestId,
      path: loggedPath(req.path),
    });
    refuse(res, 403, "errors.crossSiteForm");
  };
}

/** Remix v2's origin comparison (Origin against Host), kept as a 400 (decisions 0079, 0132). */
export function refuseHostOriginMismatch(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    const differs = hostDiffersFromOrigin({
      method: req.method,
      origin: req.get("origin"),
      host: req.get("host"),
      forwardedHost: req.get("x-forwarded-host"),
    });
    if (!differs) return next();
    logger.info({ msg: "host and origin differ: form refused", requestId: res.locals.requestId });
    refuse(res, 400, "errors.hostMismatch");
  };
}

/** A write's method, type and announced length, before its body is read (decision 0051). */
export function checkFormRequests(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
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
    if (Number(req.get("content-length") ?? 0) > DRAIN_LIMIT_BYTES) {
      res.set("Connection", "close");
    }
    refuse(res, problem.status, problem.key);
  };
}

/**
 * The browser's files: the build's bundles and a copy of public/ (locales, images, documents),
 * all in the client build's directory.
 */
export function publicFiles(clientDir: string): express.Router {
  const router = express.Router();
  // A file answered here is measured as one; a path that is no file goes on to its route.
  router.use((_req, res, next) => {
    res.locals.metricsRoute = STEP_LABELS.static;
    next();
  });
  // Fingerprinted bundles never change under the same name.
  router.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }),
  );
  router.use("/locales", express.static(path.join(clientDir, "locales"), { maxAge: "24h" }));
  const files = express.static(clientDir, { maxAge: "1h" });
  // Only paths that look like files reach the disk: pages skip a useless stat per request, and so
  // do client navigations' `.data` requests (React Router's single fetch; public/ holds no such file).
  router.use((req, res, next) =>
    path.extname(req.path) && !isDataPath(req.path) ? files(req, res, next) : next(),
  );
  return router;
}

/** The language cookie: the only cookie a page kept for anyone may set (html-caches.ts). */
export const LANGUAGE_COOKIE = "i18n_redirected";

export function languageCookie(config: Pick<Config, "isProduction">): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" && !(req.get("cookie") ?? "").includes(`${LANGUAGE_COOKIE}=`)) {
      res.append(
        "Set-Cookie",
        `${LANGUAGE_COOKIE}=es; Path=/; Max-Age=31536000; SameSite=Lax${config.isProduction ? "; Secure" : ""}`,
      );
    }
    next();
  };
}

/**
 * Anything thrown past the routes: logged with its stack in the JSON log, told to the error
 * tracker (decision 0111), and a plain Spanish page for the customer, never Express's own page
 * with the stack in it.
 */
export function unhandledErrors(
  logger: Logger,
  errors: Pick<ErrorReporter, "report">,
): express.ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    logger.error({ err: error, requestId: res.locals.requestId }, "unhandled server error");
    errors.report(error, {
      requestId: res.locals.requestId as string,
      route: (res.locals.metricsRoute as string | undefined) ?? STEP_LABELS.unrouted,
      method: methodLabel(req.method),
    });
    if (res.headersSent) return next(error);
    refuse(res, 500, "errors.serverErrorMessage");
  };
}
