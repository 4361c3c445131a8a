import type { ServerBuild } from "react-router";
import type express from "express";
import { LRUCache } from "lru-cache";
import type { Config } from "~/config.server";
import { everyMatchedRouteOptsIn, type RenderMemo } from "~/lib/page-caching";
import type { Metrics, PageCacheName } from "~/observability/metrics.server";
import type { Services } from "~/context";
import { LANGUAGE_COOKIE } from "./middlewares";
import {
  cartPageKey,
  pageAddressKey,
  pageAudience,
  pageCachePaths,
  renderedPageAddress,
  renderedPageKey,
} from "./page-keys";

/**
 * Every copy of a page the server keeps, in one place (decision 0084):
 *
 * - **Pages for anyone** (decision 0046): home, plans, help, sign-in and the empty cart, for a
 *   request that carries none of the app's cookies, answered before any loader runs.
 * - **Pages as a cart's holder sees them** (decision 0073): the same pages for a request whose only
 *   cookie of ours is the cart, keyed by the address and the cart's contents, answered privately.
 * - **The render memo** (decision 0077): the loaders always run; a page whose routes opt in with
 *   `handle.renderMemo` is rendered again only when their data differs from a page rendered in the
 *   last PAGE_CACHE_SECONDS. entry.server gets it through the load context (`renderMemo`).
 *
 * Only routes that opt in (`handle.pageCache`, `handle.renderMemo`: app/lib/page-caching.ts), only
 * complete 200 answers, and for the first two only answers that set none of the app's cookies are
 * kept. Each answer gets its own CSP nonce and view tokens in place of those the page was rendered
 * with. What they may hold is one budget, in bytes, against the heap cap (HTML_CACHE_BUDGET).
 */

const KB = 1024;
const MB = 1024 * KB;

/** `npm start`'s `--max-old-space-size=192` (decision 0048); a unit test reads package.json. */
export const HEAP_CAP_BYTES = 192 * MB;

/**
 * What the three caches may hold. A kept page's bytes are Buffers, outside V8's old space, so the
 * heap cap does not bound them: this budget does, at an eighth of the cap, so that a full set of
 * caches fits beside the heap within the RSS target of issue 7 (250 MB). A page weighs its bytes
 * plus the objects that describe it (PAGE_OVERHEAD_BYTES and one view per per-answer value). Pages
 * weigh 20–50 KB (sign-in 23 KB, home 31 KB, plans 50 KB): at 40 KB that is about 200, 100 and 300
 * pages, the counts decisions 0046, 0073 and 0077 gave.
 */
export const HTML_CACHE_BUDGET = {
  /** Pages for anyone. */
  anyone: 8 * MB,
  /** Pages as cart holders see them: apart, so that many carts never push out the pages for anyone. */
  cartHolders: 4 * MB,
  /** Documents kept by their data: one per signed-in customer's page in view, mostly. */
  renderMemo: 12 * MB,
  /** A page larger than this is never kept (the whole help centre, the largest, is 114 KB). */
  largestPage: 256 * KB,
  /**
   * Pages kept for one path with query parameters in their key (searches, filters), in each cache:
   * a flood of searches only pushes out other searches of its own path (decision 0079).
   */
  variantsPerPath: 20,
} as const;

/** What each kept page costs besides its bytes: its key, its entry, its list of segments. */
const PAGE_OVERHEAD_BYTES = 512;
/** What each segment's Buffer view costs on the heap. */
const SEGMENT_OVERHEAD_BYTES = 96;

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
  /** The path whose query variant this page is (its key holds query parameters), if it is one. */
  variantOf?: string;
}

export interface PageCacheOptions {
  ttlMs: number;
  /** What all its pages together may weigh (see HTML_CACHE_BUDGET). */
  maxBytes: number;
  maxPageBytes: number;
  /** At most this many pages with query parameters in their key per path; the oldest go first. */
  maxVariantsPerPath: number;
  now?: () => number;
}

/** Kept pages, least recently answered first out, for `ttlMs` each, within `maxBytes`. */
export class PageCache {
  readonly #pages: LRUCache<string, CachedPage>;
  /** The keys of each path's query variants, oldest first. */
  readonly #variants = new Map<string, Set<string>>();

  constructor(readonly options: PageCacheOptions) {
    this.#pages = new LRUCache<string, CachedPage>({
      maxSize: options.maxBytes,
      sizeCalculation: (page, key) =>
        page.bytes +
        key.length +
        PAGE_OVERHEAD_BYTES +
        SEGMENT_OVERHEAD_BYTES * page.segments.length,
      ttl: options.ttlMs,
      // Read the clock at every look-up: a page must not outlive its time by a timer's delay.
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
      dispose: (page, key) => {
        if (page.variantOf === undefined) return;
        const keys = this.#variants.get(page.variantOf);
        keys?.delete(key);
        if (keys?.size === 0) this.#variants.delete(page.variantOf);
      },
    });
  }

  get(key: string): CachedPage | undefined {
    return this.#pages.get(key);
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
    if (page.body.length > this.options.maxPageBytes) return;
    const { segments, slots } = splitAround(page.body, page.perAnswer);
    // A page stored again counts as new: its earlier copy, and its place among the variants, go.
    this.#pages.delete(key);
    if (variantOf !== undefined) this.#makeRoomForVariantOf(variantOf);
    this.#pages.set(key, {
      status: page.status,
      contentType: page.contentType,
      segments,
      slots,
      bytes: page.body.length,
      ...(variantOf === undefined ? {} : { variantOf }),
    });
    if (variantOf !== undefined && this.#pages.has(key)) {
      const keys = this.#variants.get(variantOf) ?? new Set<string>();
      this.#variants.set(variantOf, keys.add(key));
    }
  }

  #makeRoomForVariantOf(path: string) {
    const keys = this.#variants.get(path);
    for (const oldest of keys ?? []) {
      if (keys!.size < this.options.maxVariantsPerPath) break;
      keys!.delete(oldest);
      this.#pages.delete(oldest);
    }
  }

  /** How many pages are kept (expired ones may still count until looked up or pushed out). */
  get size(): number {
    return this.#pages.size;
  }

  /** What the kept pages weigh by this cache's measure. */
  get bytes(): number {
    return this.#pages.calculatedSize;
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

/**
 * A page made for anyone may be stored by a browser or a shared cache, but asked for again every
 * time (decision 0079): its URL does not say whether the request carried a session or a cart, and
 * each answer has its own script nonce. This server's memory answers the repeats.
 */
const FOR_ANYONE = "no-cache";
const FOR_ONE = "private, no-store";
const HTML = "text/html; charset=utf-8";

/**
 * The HTML caches of one process: `pages` is the middleware of the two request-level caches, put
 * before React Router's handler; `renderMemo` goes into every request's load context; `cacheControl`
 * says how a rendered page may be kept by others. With PAGE_CACHE_SECONDS=0 nothing is kept.
 */
export function createHtmlCaches({
  config,
  services,
  routes,
  metrics,
}: {
  config: Pick<Config, "PAGE_CACHE_SECONDS">;
  services: Pick<Services, "cookies">;
  routes: ServerBuild["routes"];
  /** Hits and misses of each cache, and what each holds (decision 0110). */
  metrics?: Pick<Metrics, "pageCacheLookup" | "watch">;
}) {
  const cacheOf = (maxBytes: number) =>
    config.PAGE_CACHE_SECONDS > 0
      ? new PageCache({
          ttlMs: config.PAGE_CACHE_SECONDS * 1000,
          maxBytes,
          maxPageBytes: HTML_CACHE_BUDGET.largestPage,
          maxVariantsPerPath: HTML_CACHE_BUDGET.variantsPerPath,
        })
      : null;
  const forAnyone = cacheOf(HTML_CACHE_BUDGET.anyone);
  const forCartHolders = cacheOf(HTML_CACHE_BUDGET.cartHolders);
  const renderedPages = cacheOf(HTML_CACHE_BUDGET.renderMemo);
  const cacheName = new Map<PageCache | null, PageCacheName>([
    [forAnyone, "anyone"],
    [forCartHolders, "cart-holders"],
  ]);
  metrics?.watch({
    pageCacheBytes: () => ({
      ...(forAnyone ? { anyone: forAnyone.bytes } : {}),
      ...(forCartHolders ? { "cart-holders": forCartHolders.bytes } : {}),
      ...(renderedPages ? { "render-memo": renderedPages.bytes } : {}),
    }),
  });

  const { cookies } = services;
  // The form-key secret is left out: no page shows anything of it, and a page that issues a key
  // (the only one that reads it) is never kept whole. A visitor who once opened a form keeps
  // getting the pages made for anyone.
  const appCookieNames = Object.values(cookies)
    .filter((cookie) => cookie !== cookies.formKeys)
    .map((cookie) => cookie.name);
  /** The paths the request-level caches may answer, with the query parameters each page reads. */
  const cachedPagePaths = pageCachePaths(routes);

  /**
   * Who the page is for, and the cache and key it may be answered from (none: rendered for one).
   * The key holds only the query parameters the page reads: `/?utm_source=x` is answered with `/`.
   * A page is stored only when rendered for its exact address (`storable`).
   */
  function slotFor(req: express.Request) {
    const audience = pageAudience({
      method: req.method,
      path: req.path,
      cookieHeader: req.get("cookie"),
      hasAuthorization: req.get("authorization") !== undefined,
      appCookieNames,
      cartCookieName: cookies.cart.name,
    });
    const readQuery = cachedPagePaths.get(req.path);
    const none = { audience, cache: null, key: "", storable: false, variantOf: undefined };
    if (!readQuery) return none;
    const { key, exact, variantOf } = pageAddressKey(req.originalUrl, readQuery);
    if (audience === "anyone") {
      return { audience, cache: forAnyone, key, storable: exact, variantOf };
    }
    if (audience === "cart-holder" && forCartHolders) {
      // Opened here with the same sealed cookie the loaders read; a cart it cannot open (expired,
      // tampered) is rendered, so that the page clears it.
      const items = cookies.cart.read(req.get("cookie") ?? null);
      if (items && items.length > 0) {
        const cartKey = cartPageKey(key, items);
        return { audience, cache: forCartHolders, key: cartKey, storable: exact, variantOf };
      }
    }
    return none;
  }

  const pages: express.RequestHandler = (req, res, next) => {
    const { audience, cache, key, storable, variantOf } = slotFor(req);
    // A request carrying none of the app's cookies gets a page made for nobody in particular.
    res.locals.forNobodyInParticular = audience === "anyone";
    if (!cache) return next();
    const nonce = res.locals.cspNonce as string;
    const cached = cache.get(key);
    metrics?.pageCacheLookup(cacheName.get(cache)!, cached !== undefined);
    if (cached) {
      res.locals.pageCacheHit = true;
      res.status(cached.status).set("Content-Type", cached.contentType);
      res.set("Cache-Control", res.locals.forNobodyInParticular ? FOR_ANYONE : FOR_ONE);
      const parts = pagePartsWith(cached, [nonce]);
      res.set("Content-Length", String(parts.reduce((length, part) => length + part.length, 0)));
      // Not corked: compression writes the gzip of these parts later, and from a corked socket
      // that never drains (a kept page over 16 KB compressed never arrived).
      for (const part of parts) res.write(part);
      res.end();
      return;
    }
    // Rendered for another spelling of a kept page's address (a junk query parameter): not kept.
    if (!storable) return next();
    keepWhatIsWritten(res, (body, contentType) => {
      if (
        res.locals.pageCacheAllowed === true &&
        res.statusCode === 200 &&
        contentType.startsWith("text/html") &&
        !setsAppCookie(res.getHeader("set-cookie"))
      ) {
        cache.store(key, { status: 200, contentType, body, perAnswer: [nonce] }, variantOf);
      }
    });
    next();
  };

  const renderMemo: RenderMemo | null = renderedPages && {
    placeFor({ request, status, routerContext, nonce, viewTokens }) {
      if (!everyMatchedRouteOptsIn(routerContext, "renderMemo")) return null;
      // A page is kept, and looked for, only at its own address: a flood of other spellings (junk
      // query parameters, `/PLANS`) would each be another page and push the real ones out.
      const address = renderedPageAddress(new URL(request.url), routerContext);
      if (!address.exact) return null;
      const pageKey = renderedPageKey(
        address.key,
        status,
        routerContext.staticHandlerContext,
        viewTokens,
      );
      if (!pageKey) return null;
      const perAnswer = [nonce, ...pageKey.viewTokens];
      const kept = renderedPages.get(pageKey.key);
      metrics?.pageCacheLookup("render-memo", kept !== undefined);
      return {
        kept: kept && pageWith(kept, perAnswer),
        keep(html) {
          const page = { status: 200, contentType: HTML, body: html, perAnswer };
          renderedPages.store(pageKey.key, page, address.variantOf);
        },
      };
    },
  };

  /**
   * What was rendered for one visitor stays with that visitor: only a page of a route without
   * anything personal, for a request without the app's cookies, may be kept by others.
   */
  function cacheControl(res: express.Response): string {
    const forAnyone =
      res.locals.forNobodyInParticular === true && res.locals.pageCacheAllowed === true;
    return forAnyone ? FOR_ANYONE : FOR_ONE;
  }

  return { pages, renderMemo, cacheControl };
}

/** Hands what the response wrote, once it ends, to `onEnd`; the response itself is unchanged. */
function keepWhatIsWritten(
  res: express.Response,
  onEnd: (body: Buffer, contentType: string) => void,
) {
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
    onEnd(Buffer.concat(chunks), String(res.getHeader("content-type") ?? ""));
    return end(chunk, ...rest);
  }) as typeof res.end;
}

/** A response that sets one of the app's cookies was made for one visitor only. */
function setsAppCookie(header: number | string | string[] | undefined): boolean {
  const lines = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  return lines.some((line) => !line.startsWith(`${LANGUAGE_COOKIE}=`));
}
