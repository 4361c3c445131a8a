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
  /** The page's bytes split where the rendering's nonce stood, so each answer only joins buffers. */
  segments: Buffer[];
  bytes: number;
  expiresAt: number;
}

export interface PageCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBodyBytes: number;
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

  /** Keeps a rendered page; `nonce` is the one it was rendered with. */
  store(key: string, page: { status: number; contentType: string; body: Buffer; nonce: string }) {
    if (page.body.length > this.options.maxBodyBytes) return;
    const segments = splitAround(page.body, Buffer.from(page.nonce));
    // Insertion order is age order: the oldest entry goes first when the cache is full.
    this.#pages.delete(key);
    if (this.#pages.size >= this.options.maxEntries) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
    this.#pages.set(key, {
      status: page.status,
      contentType: page.contentType,
      segments,
      bytes: page.body.length,
      expiresAt: this.#now() + this.options.ttlMs,
    });
  }

  get size(): number {
    return this.#pages.size;
  }
}

function splitAround(body: Buffer, separator: Buffer): Buffer[] {
  const segments: Buffer[] = [];
  let start = 0;
  for (let found = body.indexOf(separator); found !== -1; found = body.indexOf(separator, start)) {
    segments.push(body.subarray(start, found));
    start = found + separator.length;
  }
  segments.push(body.subarray(start));
  return segments;
}

/** The page's HTML with the response's own nonce in place of the one it was rendered with. */
export function pageWithNonce(page: CachedPage, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce);
  const parts: Buffer[] = [];
  page.segments.forEach((segment, index) => {
    if (index > 0) parts.push(nonceBytes);
    parts.push(segment);
  });
  return Buffer.concat(parts);
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

/** The cache key of a page as one cart's holder sees it: the address and the cart's contents. */
export function cartPageKey(url: string, items: ReadonlyArray<{ id: string; quantity: number }>) {
  const contents = items
    .map((item) => [item.id, item.quantity] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${url} ${JSON.stringify(contents)}`;
}
