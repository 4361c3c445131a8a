import type { LoaderFunctionArgs } from "react-router";
import type { Services } from "~/context";
import { createRequestContext, isRedirectStatus } from "~/lib/request-context.server";
import { requestContext as requestContextKey, routerContextFor } from "~/lib/router-context.server";

/**
 * Route loaders and actions called as the server calls them, from a browser that keeps the
 * cookies they set (tests of auth flows without a browser process).
 */

/** One request's context, built as server/router-handler.ts builds it. */
export function requestContext(services: Services, browser: Browser) {
  return createRequestContext(services, {
    cookieHeader: browser.header,
    cspNonce: "",
    requestId: "test",
    isPrefetch: false,
    clientAddressKey: "203.0.113.7",
    setPageCacheable: () => undefined,
    renderMemo: null,
  });
}

/** A browser: keeps the cookies the server sets and sends them back. */
export class Browser {
  cookies = new Map<string, string>();
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  keep(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }
}

export interface Outcome {
  status: number;
  location: string | null;
  setCookies: string[];
  data: unknown;
  headers: Headers;
}

export type RouteFunction = (args: LoaderFunctionArgs) => unknown;

export async function call(
  fn: RouteFunction,
  services: Services,
  browser: Browser,
  url: string,
  form?: Record<string, string>,
): Promise<Outcome> {
  const context = await requestContext(services, browser);
  const request = new Request(`http://localhost${url}`, {
    method: form ? "POST" : "GET",
    headers: {
      Cookie: browser.header,
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
  let result: unknown;
  try {
    result = await fn({
      request,
      url: new URL(request.url),
      pattern: new URL(request.url).pathname,
      params: {},
      context: routerContextFor(requestContextKey, context),
    });
  } catch (thrown) {
    result = thrown;
  }
  let outcome: Outcome;
  if (result instanceof Response) {
    outcome = {
      status: result.status,
      location: result.headers.get("Location"),
      setCookies: result.headers.getSetCookie(),
      data: null,
      headers: result.headers,
    };
  } else if (result && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: unknown; init: ResponseInit | null };
    const headers = new Headers(init?.headers);
    outcome = {
      status: init?.status ?? 200,
      location: null,
      setCookies: headers.getSetCookie(),
      data,
      headers,
    };
  } else {
    outcome = { status: 200, location: null, setCookies: [], data: result, headers: new Headers() };
  }
  // What server/router-handler.ts adds: the cookies the request's jar collected.
  outcome.setCookies.push(
    ...context.jar.setCookieHeaders({ redirect: isRedirectStatus(outcome.status) }),
  );
  browser.keep(outcome.setCookies);
  return outcome;
}
