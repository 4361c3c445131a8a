import {
  type EntryContext,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { DATABASE_RETRY_AFTER_SECONDS } from "./db/database-busy.server";
import { DATABASE_UNAVAILABLE_STATUS } from "./db/database-unavailable-pages.server";
import { getFixedT, serverTranslators } from "./i18n/i18n.server";
import { TranslationProvider } from "./i18n/react";
import { createHtmlCollector, withLowPriorityScriptPreloads } from "./lib/html-stream.server";
import { NonceProvider } from "./lib/nonce";
import { everyMatchedRouteOptsIn } from "./lib/page-caching";
import { requestContext } from "./lib/router-context.server";
import { setSpanishValidationMessages } from "./lib/validation-messages";

// The key the Express layer stores each request's context under (lib/router-context.server.ts).
export { requestContext };

export const streamTimeout = 5_000;

const HTML = "text/html; charset=utf-8";

setSpanishValidationMessages(getFixedT("common"));

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  routerLoadContext: RouterContextProvider,
) {
  const loadContext = routerLoadContext.get(requestContext);
  const nonce = loadContext.cspNonce;
  askToRetryLater(responseStatusCode, responseHeaders);
  // A page carrying a view token (a form's idempotency key) is one visitor's: never shared whole.
  loadContext.setPageCacheable(
    responseStatusCode === 200 &&
      loadContext.viewTokens.length === 0 &&
      everyMatchedRouteOptsIn(routerContext, "pageCache"),
  );
  // Pages of the routes that opt in with `handle.renderMemo`, kept by the data they were rendered
  // from (server/html-caches.ts, decision 0077): the same data again is answered with the same bytes.
  const memo =
    loadContext.renderMemo?.placeFor({
      request,
      status: responseStatusCode,
      routerContext,
      nonce,
      viewTokens: loadContext.viewTokens,
    }) ?? null;
  if (memo?.kept) {
    responseHeaders.set("Content-Type", HTML);
    return new Response(memo.kept, { headers: responseHeaders, status: responseStatusCode });
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Cleared once the document is fully written: a pending timer would keep the whole render
    // alive for seconds after the response, which under load costs memory and throughput.
    const abortTimer = setTimeout(() => abort(), streamTimeout + 1_000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <TranslationProvider source={serverTranslators}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </TranslationProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        // Sent whole, to browsers and crawlers alike (decision 0073).
        onAllReady() {
          responseHeaders.set("Content-Type", HTML);
          pipe(
            createHtmlCollector((rendered) => {
              const html = withLowPriorityScriptPreloads(rendered);
              clearTimeout(abortTimer);
              if (responseStatusCode === 200) memo?.keep(html);
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // A page that failed half-way must not be served to the next visitor.
          loadContext.setPageCacheable(false);
          if (shellRendered) {
            loadContext.logger.error({ err: error }, "render error");
            loadContext.reportError(error);
          }
        },
      },
    );
  });
}

/** The `.data` request of a client navigation: the same Retry-After as the document's. */
export function handleDataRequest(response: Response) {
  askToRetryLater(response.status, response.headers);
  return response;
}

/**
 * A 503 (a page or form the database could not serve for a moment) tells when to try again;
 * thrown error responses' own headers stop at the boundary route, so it is set here.
 */
function askToRetryLater(status: number, headers: Headers) {
  if (status === DATABASE_UNAVAILABLE_STATUS && !headers.has("Retry-After")) {
    headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  }
}

export function handleError(
  error: unknown,
  { request, context: routerContext }: { request: Request; context: RouterContextProvider },
) {
  const context = routerContext.get(requestContext);
  if (request.signal.aborted) return;
  // React Router's own 4xx answers (a POST to a page without an action: 405) are the client's mistake.
  if (isRouteErrorResponse(error) && error.status < 500) {
    context.logger.info({ requestId: context.requestId, status: error.status }, "refused request");
    return;
  }
  context.logger.error({ err: error, requestId: context.requestId }, "unhandled route error");
  // A thrown response (a 503 while the database is away) is an answer, not a bug to report.
  if (!isRouteErrorResponse(error)) context.reportError(error);
}
