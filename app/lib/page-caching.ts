import type { EntryContext } from "react-router";

/**
 * What a route module's `handle` says about keeping its page. The caches themselves live in the
 * Express layer (server/html-caches.ts, decision 0084); the app only declares, and entry.server
 * uses the render memo it is handed through the load context.
 */
export interface PageCacheHandle {
  /**
   * The page holds nothing personal but the cart: the request-level page caches may keep it whole
   * and answer it before any loader runs (decisions 0046, 0073).
   */
  pageCache?: boolean;
  /**
   * The page is a function of its address and its loaders' data alone (no clock, no random value,
   * nothing read past the loaders while rendering): the render memo may answer it with the bytes of
   * an earlier rendering of the same data (decisions 0077, 0084). Checked by
   * tests/e2e/render-memo.spec.ts and by the lint rule against clocks and randomness.
   */
  renderMemo?: boolean;
  /**
   * The query parameters the route reads (its loader, its action or its page). Only these are part
   * of a kept page's key; any other is ignored by the key, and a page rendered for an address that
   * holds one is never kept (decision 0079).
   */
  query?: readonly string[];
}

/** Whether every route of the page but the root (part of every page) opts in to `option`. */
export function everyMatchedRouteOptsIn(
  routerContext: Pick<EntryContext, "staticHandlerContext" | "routeModules">,
  option: "pageCache" | "renderMemo",
): boolean {
  return routerContext.staticHandlerContext.matches.every((match) => {
    if (match.route.id === "root") return true;
    const handle = routerContext.routeModules[match.route.id]?.handle as
      PageCacheHandle | undefined;
    return handle?.[option] === true;
  });
}

/** The query parameters a page's routes read, from their `handle`s. */
export function queryReadBy(handles: readonly unknown[]): string[] {
  const names = handles.flatMap((handle) => (handle as PageCacheHandle | undefined)?.query ?? []);
  return [...new Set(names)];
}

/** A document about to be rendered, as the render memo looks it up. */
export interface DocumentToRender {
  request: Request;
  status: number;
  routerContext: EntryContext;
  /** This answer's CSP nonce and view tokens: put back in a kept page's bytes. */
  nonce: string;
  viewTokens: readonly string[];
}

/** The render memo's place for one document. */
export interface RenderMemoPlace {
  /** The bytes of an earlier rendering of the same data, with this answer's own values in place. */
  kept: Buffer<ArrayBuffer> | undefined;
  /** Keeps this rendering (call it only for a complete 200 document). */
  keep(html: Buffer): void;
}

/**
 * Documents kept by the data they were rendered from (decision 0077), handed to entry.server
 * through the load context; null in the context when PAGE_CACHE_SECONDS is 0.
 */
export interface RenderMemo {
  /** Null when this document may not be kept: a route did not opt in, an error, an action… */
  placeFor(document: DocumentToRender): RenderMemoPlace | null;
}
