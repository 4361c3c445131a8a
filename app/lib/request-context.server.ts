import type { AppLoadContext } from "@remix-run/node";
import { loadSession } from "~/auth/session.server";
import type { Services } from "~/services.server";
import { createCookieJar } from "./cookie-jar.server";

/**
 * The context every loader and action of one request receives: the long-lived services, the
 * request's cookie jar and its session, read once (and checked against sign-outs, and refreshed)
 * before any loader runs. server.ts builds it, and commits the jar once the answer is known.
 */
export async function createRequestContext(
  services: Services,
  request: {
    cookieHeader: string | null;
    cspNonce: string;
    requestId: string;
    clientIp: string;
    setPageCacheable: (cacheable: boolean) => void;
  },
): Promise<AppLoadContext> {
  const { cookieHeader, ...rest } = request;
  const jar = createCookieJar(cookieHeader);
  return { ...services, ...rest, jar, session: await loadSession(services, jar) };
}

/** Whether Remix answered with a redirect; single fetch answers a data request's with 202. */
export function isRedirectStatus(status: number): boolean {
  return (status >= 300 && status < 400) || status === 202;
}
