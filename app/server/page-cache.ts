import { createHash } from "node:crypto";

/**
 * Pages that look the same to every visitor without a session or a cart — home, plans, help,
 * sign-in — are rendered once and served from memory for a few seconds. During a promotion most
 * requests are such first visits; rendering each again cost about four times a minimal Remix page.
 *
 * Safety rests on three rules: only requests that carry none of the app's own cookies (every
 * personal thing — session, cart, flash, order access — lives in one of them), only routes that
 * opt in with `handle.pageCache`, and only complete 200 answers that set no cookie. Each answer
 * gets its own CSP nonce: the nonce the page was rendered with is replaced.
 *
 * A visitor whose only cookie of ours is the cart sees those pages with their cart in the header
 * (and on /cart): the cart is then the page's only personal input, so such pages are kept per cart
 * contents, in a cache of their own, and answered as private (decision 0073).
 */
export interface CachedPage {
  status: number;
  contentType: string;
  /**
   * The page's bytes split where a per-answer value of the rendering stood (its CSP nonce, a
   * form's idempotency key): each answer only joins buffers.
   */
  segments: Buffer[];
  /** Which per-answer value goes between segment i and i + 1. */
  slots: number[];
  bytes: number;
  expiresAt: number;
  /** The path whose query variant this page is (its key holds query parameters), if it is one. */
  variantOf?: string;
}

export interface PageCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBodyBytes: number;
  /**
   * Pages kept for one path with query parameters in their key (searches, filters): at most this
   * many (default 20), the oldest going first, so that a flood of searches can only push out other
   * searches of its own path, never the other pages (decision 0079).
   */
  maxVariantsPerPath?: number;
  now?: () => number;
}

export class PageCache {
  readonly #pages = new Map<string, CachedPage>();
  readonly #now: () => number;

  constructor(readonly options: PageCacheOptions) {
    this.#now = options.now ?? Date.now;
  }

  get(key: string): CachedPage | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    if (page.expiresAt <= this.#now()) {
      this.#pages.delete(key);
      return undefined;
    }
    return page;
  }

  /**
   * Keeps a rendered page. `perAnswer` are the values it was rendered with that each answer
   * replaces with its own: the nonce first, then any view tokens (see `pageWith`). `variantOf`:
   * the path, when the key holds query parameters (see `maxVariantsPerPath`).
   */
  store(
    key: string,
    page: { status: number; contentType: string; body: Buffer; perAnswer: readonly string[] },
    variantOf?: string,
  ) {
    if (page.body.length > this.options.maxBodyBytes) return;
    const { segments, slots } = splitAround(page.body, page.perAnswer);
    // Insertion order is age order: the oldest entry goes first when the cache is full.
    this.#pages.delete(key);
    if (variantOf !== undefined) this.#makeRoomForVariantOf(variantOf);
    if (this.#pages.size >= this.options.maxEntries) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
    this.#pages.set(key, {
      status: page.status,
      contentType: page.contentType,
      segments,
      slots,
      bytes: page.body.length,
      expiresAt: this.#now() + this.options.ttlMs,
      ...(variantOf === undefined ? {} : { variantOf }),
    });
  }

  #makeRoomForVariantOf(path: string) {
    const limit = this.options.maxVariantsPerPath ?? 20;
    const variants = [...this.#pages].filter(([, page]) => page.variantOf === path);
    for (const [key] of variants.slice(0, Math.max(0, variants.length - limit + 1))) {
      this.#pages.delete(key);
    }
  }

  get size(): number {
    return this.#pages.size;
  }
}

function splitAround(body: Buffer, values: readonly string[]) {
  const found: Array<{ at: number; slot: number; length: number }> = [];
  values.forEach((value, slot) => {
    const bytes = Buffer.from(value);
    if (bytes.length === 0) return;
    for (let at = body.indexOf(bytes); at !== -1; at = body.indexOf(bytes, at + bytes.length)) {
      found.push({ at, slot, length: bytes.length });
    }
  });
  found.sort((a, b) => a.at - b.at);
  const segments: Buffer[] = [];
  const slots: number[] = [];
  let start = 0;
  for (const { at, slot, length } of found) {
    segments.push(body.subarray(start, at));
    slots.push(slot);
    start = at + length;
  }
  segments.push(body.subarray(start));
  return { segments, slots };
}

/**
 * The page's bytes with this answer's own values (its nonce, its view tokens) in their places, as
 * parts to write in order: the kept page is not copied, so answering from memory allocates next
 * to nothing (a copy per answer made the collector run a full collection several times a second).
 */
export function pagePartsWith(page: CachedPage, perAnswer: readonly string[]): Buffer[] {
  const parts: Buffer[] = [page.segments[0]!];
  page.slots.forEach((slot, index) => {
    parts.push(Buffer.from(perAnswer[slot] ?? ""), page.segments[index + 1]!);
  });
  return parts;
}

/** The page's HTML with this answer's own values in their places, in one buffer. */
export function pageWith(page: CachedPage, perAnswer: readonly string[]): Buffer<ArrayBuffer> {
  return Buffer.concat(pagePartsWith(page, perAnswer));
}

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
  if (request.method !== "GET" || request.path.endsWith(".data") || request.hasAuthorization) {
    return null;
  }
  const others = request.appCookieNames.filter((name) => name !== request.cartCookieName);
  if (carriesAnyCookie(request.cookieHeader, others)) return null;
  return carriesAnyCookie(request.cookieHeader, [request.cartCookieName])
    ? "cart-holder"
    : "anyone";
}

/** What a route module's `handle` says about keeping its page. */
export interface PageCacheHandle {
  /** The page holds nothing personal but the cart: it may be kept whole (decisions 0046, 0073). */
  pageCache?: boolean;
  /**
   * The query parameters the route reads (its loader, its action or its page). Only these are part
   * of a kept page's key; any other is ignored by the key, and a page rendered for an address that
   * holds one is never kept (decision 0079).
   */
  query?: readonly string[];
}

/** The query parameters a page's routes read, from their `handle`s. */
export function queryReadBy(handles: readonly unknown[]): string[] {
  const names = handles.flatMap((handle) => (handle as PageCacheHandle | undefined)?.query ?? []);
  return [...new Set(names)];
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
 * The paths whose page the request-level caches may answer before Remix runs, each with the query
 * parameters it reads: routes that opt in with `handle.pageCache` (every parent but the root
 * too), at their own spelling. `/PLANS`, `/plans/` or a route with a dynamic segment are left to
 * Remix: each spelling would be another page in the cache.
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

/** The cache key of a page as one cart's holder sees it: the address and the cart's contents. */
export function cartPageKey(url: string, items: ReadonlyArray<{ id: string; quantity: number }>) {
  const contents = items
    .map((item) => [item.id, item.quantity] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${url} ${JSON.stringify(contents)}`;
}

/** What a document's rendering is made from, besides its address (Remix's handler state). */
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
