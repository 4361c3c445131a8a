import { randomUUID } from "node:crypto";
import { dropRevokedAccess } from "~/auth/browser-access.server";
import { loadSession } from "~/auth/session.server";
import type { RequestContext, Services } from "~/context";
import { createCookieJar } from "./cookie-jar.server";
import type { RenderMemo } from "./page-caching";

/**
 * The context every loader and action of one request receives: the long-lived services, the
 * request's cookie jar and its session. Before any loader runs, the cookies are checked against
 * sign-outs (one query) and the session is read and refreshed, once. server/router-handler.ts
 * builds it, and commits the jar once the answer is known.
 */
export async function createRequestContext(
  services: Services,
  request: {
    cookieHeader: string | null;
    cspNonce: string;
    requestId: string;
    isPrefetch: boolean;
    clientAddressKey: string;
    setPageCacheable: (cacheable: boolean) => void;
    renderMemo: RenderMemo | null;
    /** This request's errors to the tracker (server/router-handler.ts); default: nobody. */
    reportError?: (error: unknown) => void;
  },
): Promise<RequestContext> {
  const { cookieHeader, reportError = () => undefined, ...rest } = request;
  const jar = createCookieJar(cookieHeader);
  await dropRevokedAccess(services, jar);
  const viewTokens: string[] = [];
  return {
    ...services,
    ...rest,
    jar,
    reportError,
    session: await loadSession(services, jar),
    viewTokens,
    newViewToken(token = randomUUID()) {
      viewTokens.push(token);
      return token;
    },
  };
}

/**
 * A link's prefetch, from the header browsers send with it (`Sec-Purpose: prefetch`, formerly
 * `Purpose: prefetch`); not a prerender, whose page is shown.
 */
export function isPrefetchRequest(purpose: string | null | undefined): boolean {
  return !!purpose && /\bprefetch\b/i.test(purpose) && !/\bprerender\b/i.test(purpose);
}

/** Whether React Router answered with a redirect; single fetch answers a data request's with 202. */
export function isRedirectStatus(status: number): boolean {
  return (status >= 300 && status < 400) || status === 202;
}
