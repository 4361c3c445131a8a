import type { IncomingHttpHeaders } from "node:http";
import { createRequestHandler, data, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import { withDatabaseOutagePages } from "~/db/database-unavailable-pages.server";
import { getFixedT } from "~/i18n/i18n.server";
import { isDataPath } from "~/lib/data-requests";
import { withNewBuildDocumentLoads } from "~/lib/new-build.server";
import type { RenderMemo } from "~/lib/page-caching";
import { requestContextKeyOf, routerContextFor } from "~/lib/router-context.server";
import { methodLabel } from "~/observability/metrics.server";
import {
  createRequestContext,
  isPrefetchRequest,
  isRedirectStatus,
} from "~/lib/request-context.server";
import type { Services } from "~/context";
import { clientAddressKey } from "./client-address";
import { formBodyLimitFor } from "./form-requests";
import { STEP_LABELS } from "./metrics";
import { discardThenHangUp, isReadableMultipart, readBodyWithin } from "./request-body.server";

/**
 * The Express ends of a React Router request, written here rather than taken from `@remix-run/express`,
 * whose handler builds the request's URL from the Host header, streams a body of any length and
 * sends the response before the request's cookie jar is committed (decision 0056).
 */
export function routerHandler(options: {
  /** The build, or (under `npm run dev`) how to get its latest version for each request. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  config: Config;
  services: Services;
  logger: Logger;
  /** server/html-caches.ts: the render memo for the load context, and a page's Cache-Control. */
  htmlCaches: {
    renderMemo: RenderMemo | null;
    cacheControl: (res: express.Response) => string;
  };
}): express.RequestHandler {
  const { build, mode, config, services, logger, htmlCaches } = options;
  // A page whose loader finds the database unavailable answers 503 "try again", never a 500; a
  // navigation from a page of an earlier build loads this one (decision 0108).
  const served = (each: ServerBuild) => withDatabaseOutagePages(withNewBuildDocumentLoads(each));
  // Under `npm run dev` each request takes the build as it is now, and the key it reads the
  // request's context with.
  const handlerOf = (each: ServerBuild) => ({
    handle: createRequestHandler(served(each), mode),
    // The same build without its resource routes: what renders the site's own 404 page at the
    // address of a file or an endpoint that refused a browser (resourceRouteRefusal).
    handleAsPage: createRequestHandler(withResourceRoutesNotFound(served(each)), mode),
    contextKey: requestContextKeyOf(each),
  });
  const built = typeof build === "function" ? null : handlerOf(build);
  return async (req, res, next) => {
    try {
      // A path only: an absolute-form request target names a host of the client's choosing.
      if (!req.originalUrl.startsWith("/")) {
        res.status(400).type("text/plain; charset=utf-8").send(getFixedT()("errors.badRequest"));
        return;
      }
      const body = await readRequestBody(req, res, logger);
      if (body === null) return;
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      // A form (or a provider's notification) may have queued an e-mail, or a paid top-up for its
      // line: do it now rather than at the next poll. Pages are left to the poll: they rarely
      // queue one, and are many.
      if (req.method === "POST") {
        res.on("finish", () => {
          services.mailer.nudge();
          services.lineJobs.nudge();
        });
      }
      // The URL's origin is the configured one, never the Host header's (decision 0058).
      const request = new Request(`${config.publicOrigin}${req.originalUrl}`, {
        method: req.method,
        headers: routerHeaders(req.headers, config),
        body,
        signal: controller.signal,
      });
      const requestId = res.locals.requestId as string;
      const context = await createRequestContext(services, {
        cookieHeader: req.get("cookie") ?? null,
        cspNonce: res.locals.cspNonce as string,
        requestId,
        isPrefetch: isPrefetchRequest(req.get("sec-purpose") ?? req.get("purpose")),
        clientAddressKey: clientAddressKey(
          req.ip ?? req.socket.remoteAddress,
          config.RATE_LIMIT_IPV6_PREFIX,
        ),
        setPageCacheable: (cacheable) => {
          res.locals.pageCacheAllowed = cacheable;
        },
        renderMemo: htmlCaches.renderMemo,
        reportError: (error) =>
          services.errors.report(error, {
            requestId,
            route: (res.locals.metricsRoute as string | undefined) ?? STEP_LABELS.unrouted,
            method: methodLabel(req.method),
          }),
      });
      const { handle, handleAsPage, contextKey } =
        built ?? handlerOf(await (build as () => Promise<ServerBuild>)());
      let response = await handle(request, routerContextFor(contextKey, context));
      if (isResourceRouteRefusal(req, response)) {
        await response.body?.cancel();
        const headers = new Headers(request.headers);
        for (const name of ["content-type", "content-length"]) headers.delete(name);
        const read = new Request(request.url, {
          method: req.method === "HEAD" ? "HEAD" : "GET",
          headers,
        });
        response = await notFoundPage(
          await handleAsPage(read, routerContextFor(contextKey, context)),
        );
      }
      const redirect = isRedirectStatus(response.status);
      for (const cookie of context.jar.setCookieHeaders({ redirect })) {
        res.append("Set-Cookie", cookie);
      }
      if (!response.headers.has("Cache-Control")) {
        res.set("Cache-Control", htmlCaches.cacheControl(res));
      }
      await sendRouterResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * A read of a file or an endpoint (a route without a page: an invoice's download, a social
 * sign-in's start, a notification's address) that refused it: React Router answers such a route's
 * refusal as JSON (`null`, "Unexpected Server Error"), which a customer must never see.
 */
function isResourceRouteRefusal(req: express.Request, response: Response): boolean {
  if (isDataPath(req.path)) return false;
  if (!/^application\/json/i.test(response.headers.get("content-type") ?? "")) return false;
  const read = req.method === "GET" || req.method === "HEAD";
  // A read refused for any reason; a form sent where none is taken (405): endpoints that take
  // forms answer their own refusals, which stay theirs.
  return read ? response.status >= 400 && response.status < 500 : response.status === 405;
}

/** The build with each route that has no page (no default export) made a page that is not found. */
function withResourceRoutesNotFound(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    routes[id] =
      route && route.module.default === undefined
        ? { ...route, module: { default: NoPage, loader: notFound } }
        : route;
  }
  return { ...build, routes };
}

function NoPage() {
  return null;
}

function notFound(): never {
  throw data(null, { status: 404 });
}

/**
 * The site's 404 page as rendered for that address, without its scripts: in the browser, the
 * address is still the file's route, which the page's code would try to load as a page.
 */
async function notFoundPage(page: Response): Promise<Response> {
  const html = (await page.text())
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, "");
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  return new Response(html, { status: 404, headers });
}

/**
 * The body of a write, read here within the form limit for every route (decision 0060); undefined
 * for a read. When the body is refused, the answer is already sent and this resolves to null.
 */
async function readRequestBody(
  req: express.Request,
  res: express.Response,
  logger: Logger,
): Promise<Buffer<ArrayBuffer> | undefined | null> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const t = getFixedT();
  let body: Awaited<ReturnType<typeof readBodyWithin>>;
  try {
    body = await readBodyWithin(req, formBodyLimitFor(req.path));
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

function routerHeaders(
  headers: IncomingHttpHeaders,
  config: Pick<Config, "publicOrigin" | "allowedOrigins">,
): Headers {
  const result = new Headers();
  for (const [name, values] of Object.entries(headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) result.append(name, value);
  }
  // React Router refuses a form whose Origin is not the request URL's, always the public origin
  // here; refuseCrossSiteWrites let through only the origins configured as this site (in
  // development its loopback names too), each handed on as the public one.
  const origin = result.get("origin");
  if (origin !== null && config.allowedOrigins.includes(origin)) {
    result.set("origin", config.publicOrigin);
  }
  return result;
}

/** Writes React Router's answer; headers already set on `res` (the cookie jar's) are kept. */
async function sendRouterResponse(res: express.Response, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
