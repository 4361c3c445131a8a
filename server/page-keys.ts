import { createHash } from "node:crypto";
import type { EntryContext } from "react-router";
import { isDataPath } from "~/lib/data-requests";
import { queryReadBy, type PageCacheHandle } from "~/lib/page-caching";

// The keys of the HTML caches (server/html-caches.ts): who a page view is for, and which kept page
// answers it. Pure functions of the request, the routes and the loader data.

/** Whether a cookie header holds any cookie named in `names` (chunks `name.N` included). */
export function carriesAnyCookie(cookieHeader: string | undefined, names: readonly string[]) {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    const cookieName = (separator === -1 ? part : part.slice(0, separator)).trim();
    const baseName = cookieName.replace(/\.\d+$/, "");
    if (names.includes(baseName)) return true;
  }
  return false;
}

/**
 * Who a page view could be answered for from memory: "anyone" (none of the app's cookies),
 * "cart-holder" (the cart cookie and no other of ours), or null (a session, a flash message, order
 * access… or not a plain page view: data requests and forms never are).
 */
export function pageAudience(request: {
  method: string;
  path: string;
  cookieHeader: string | undefined;
  hasAuthorization: boolean;
  appCookieNames: readonly string[];
  cartCookieName: string;
}): "anyone" | "cart-holder" | null {
  if (request.method !== "GET" || isDataPath(request.path) || request.hasAuthorization) {
    return null;
  }
  const others = request.appCookieNames.filter((name) => name !== request.cartCookieName);
  if (carriesAnyCookie(request.cookieHeader, others)) return null;
  return carriesAnyCookie(request.cookieHeader, [request.cartCookieName])
    ? "cart-holder"
    : "anyone";
}

/**
 * A page's address as a cache key: its path, and of its query only the parameters the page reads,
 * in one order. `exact` when the address held nothing else: only then may what was rendered for it
 * be kept, since a page can repeat its own address (a form's default action does). `variantOf`:
 * the path, when the key holds query parameters.
 */
export function pageAddressKey(
  pathAndQuery: string,
  readQuery: readonly string[],
): { key: string; exact: boolean; variantOf?: string } {
  const at = pathAndQuery.indexOf("?");
  const path = at === -1 ? pathAndQuery : pathAndQuery.slice(0, at);
  const params = [...new URLSearchParams(at === -1 ? "" : pathAndQuery.slice(at + 1))];
  const read = params
    .filter(([name]) => readQuery.includes(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const exact = read.length === params.length;
  if (read.length === 0) return { key: path, exact };
  return { key: `${path}?${new URLSearchParams(read).toString()}`, exact, variantOf: path };
}

interface RouteLike {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: { handle?: unknown };
}

/**
 * The paths whose page the request-level caches may answer before React Router runs, each with the query
 * parameters it reads: routes that opt in with `handle.pageCache` (every parent but the root
 * too), at their own spelling. `/PLANS`, `/plans/` or a route with a dynamic segment are left to
 * React Router: each spelling would be another page in the cache.
 */
export function pageCachePaths(
  routes: Record<string, RouteLike | undefined>,
): Map<string, string[]> {
  const all = Object.values(routes).filter((route): route is RouteLike => route !== undefined);
  const withIndex = new Set(all.filter((route) => route.index).map((route) => route.parentId));
  const paths = new Map<string, string[]>();
  for (const route of all) {
    // What a request can end on: an index route, or a route with a path and no index child.
    if (!route.index && (route.path === undefined || withIndex.has(route.id))) continue;
    const chain: RouteLike[] = [];
    for (
      let at: RouteLike | undefined = route;
      at;
      at = at.parentId ? routes[at.parentId] : undefined
    ) {
      chain.unshift(at);
    }
    const own = chain.filter((at) => at.parentId !== undefined);
    const handles = own.map((at) => at.module.handle as PageCacheHandle | undefined);
    if (own.length === 0 || !handles.every((handle) => handle?.pageCache === true)) continue;
    const segments = chain.flatMap((at) => (at.path ?? "").split("/").filter(Boolean));
    if (segments.some((segment) => /^[:*]|\?$/.test(segment))) continue;
    paths.set(`/${segments.join("/")}`, queryReadBy(chain.map((at) => at.module.handle)));
  }
  return paths;
}

/**
 * The path the matched routes spell, their parameters filled in; null if it cannot be told. A
 * request spelled otherwise (`/PLANS`, `/plans/`, `/pl%61ns`) reaches the same page by another
 * address, which must not become another kept page.
 */
export function routePathname(
  matches: ReadonlyArray<{ route: { path?: string }; params: Record<string, string | undefined> }>,
): string | null {
  const segments: string[] = [];
  for (const { route, params } of matches) {
    for (const segment of (route.path ?? "").split("/").filter(Boolean)) {
      if (segment === "*") {
        const splat = params["*"];
        if (!splat) return null;
        segments.push(...splat.split("/").map(encodeURIComponent));
      } else if (segment.startsWith(":")) {
        const value = params[segment.slice(1).replace(/\?$/, "")];
        if (value !== undefined) segments.push(encodeURIComponent(value));
        else if (!segment.endsWith("?")) return null;
      } else if (segment.endsWith("?")) {
        return null;
      } else {
        segments.push(segment);
      }
    }
  }
  return `/${segments.join("/")}`;
}

/**
 * The page's address as the render memo keys it (decision 0079): exact when the request spelled
 * the path as its routes do and held no query parameter they do not read (`handle.query`).
 */
export function renderedPageAddress(
  url: URL,
  routerContext: Pick<EntryContext, "staticHandlerContext" | "routeModules">,
) {
  const { matches } = routerContext.staticHandlerContext;
  const readQuery = queryReadBy(
    matches.map((match) => routerContext.routeModules[match.route.id]?.handle),
  );
  const address = pageAddressKey(`${url.pathname}${url.search}`, readQuery);
  return { ...address, exact: address.exact && routePathname(matches) === url.pathname };
}

/** The cache key of a page as one cart's holder sees it: the address and the cart's contents. */
export function cartPageKey(url: string, items: ReadonlyArray<{ id: string; quantity: number }>) {
  const contents = items
    .map((item) => [item.id, item.quantity] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${url} ${JSON.stringify(contents)}`;
}

/** What a document's rendering is made from, besides its address (React Router's handler state). */
export interface RenderedState {
  loaderData: Record<string, unknown>;
  actionData: Record<string, unknown> | null;
  errors: Record<string, unknown> | null;
}

class NotPlainData extends Error {}

/**
 * The key of a document rendered from given data, for any visitor (decision 0077). `address` is
 * the page's address key (pageAddressKey). The HTML React
 * writes is a function of the address, the status and what the loaders returned, so two requests
 * whose loaders return the same data get the same bytes: the second need not be rendered. Values
 * unique to one page view (`viewTokens`: a form's idempotency key, like the CSP nonce) count by
 * where they stand, not by what they are; the result lists them in that order, to be put back by
 * `pageWith`. Null when the page is not such a function of plain data: an action's answer, an
 * error, or data that is not plain (a deferred promise, a Map…).
 */
export function renderedPageKey(
  address: string,
  status: number,
  state: RenderedState,
  viewTokens: readonly string[] = [],
): { key: string; viewTokens: string[] } | null {
  if (status !== 200 || state.actionData || state.errors) return null;
  const issued = new Set(viewTokens);
  const inOrder: string[] = [];
  function replacer(this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    if (typeof original === "string" && issued.has(original)) {
      let slot = inOrder.indexOf(original);
      if (slot === -1) slot = inOrder.push(original) - 1;
      return `\u0000view-token:${slot}`;
    }
    return distinguishing(original, value);
  }
  let data: string;
  try {
    data = JSON.stringify(state.loaderData, replacer);
  } catch (error) {
    if (error instanceof NotPlainData) return null;
    throw error;
  }
  const key = createHash("sha256").update(address).update("\n").update(data).digest("base64url");
  return { key, viewTokens: inOrder };
}

/**
 * Keeps apart values JSON would merge but the page's embedded data (turbo-stream) does not:
 * undefined and a missing key, a Date and its ISO string, NaN and null, -0 and 0.
 */
function distinguishing(original: unknown, value: unknown): unknown {
  switch (typeof original) {
    case "undefined":
      return "\u0000undefined";
    case "string":
      return original.startsWith("\u0000") ? `\u0000${original}` : original;
    case "number":
      return Number.isFinite(original) && !Object.is(original, -0)
        ? original
        : `\u0000${Object.is(original, -0) ? "-0" : String(original)}`;
    case "boolean":
      return original;
    case "object": {
      if (original === null || Array.isArray(original)) return value;
      if (original instanceof Date) return `\u0000date:${value as string}`;
      const prototype = Object.getPrototypeOf(original) as unknown;
      if (prototype === Object.prototype || prototype === null) return value;
      throw new NotPlainData();
    }
    default:
      throw new NotPlainData();
  }
}
