/**
 * The browser's requests to this site, as the spec's "generic fetch" (§7 Site infrastructure): a
 * read (GET, HEAD) that meets a passing failure is sent once more; a write never is, since the
 * first may have done its work. Every other status from 400 to 599 is an answer, which React Router
 * turns into the error boundary. Data requests (`/path.data`, React Router's single fetch) also carry the
 * build the page runs, so the server can answer a client navigation from an earlier build with a
 * full page load of the new one (decision 0108).
 */

/** Statuses that say "try again" rather than "no": a timeout, a conflict, too early, too many, a server or gateway failing for a moment. */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([
  408, 409, 425, 429, 500, 502, 503, 504,
]);

/** Methods whose repetition cannot do anything twice. */
const IDEMPOTENT_READS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

/**
 * A moment before the second try, so that a server answering 503 while it restarts, or a proxy
 * between two attempts of its own, has had a chance to recover.
 */
export const RETRY_PAUSE_MS = 300;

/** The header a data request names its page's build in (React Router's manifest version). */
export const BUILD_VERSION_HEADER = "X-Build-Version";

/** Whether an answer with `status` to a `method` request is tried once more. */
export function isRetried(method: string, status: number): boolean {
  return IDEMPOTENT_READS.has(method.toUpperCase()) && RETRIED_STATUSES.has(status);
}

/** A data request's path: a loader's or action's data at `/path.data` (`/_.data` for `/`). */
export function isDataPath(pathname: string): boolean {
  return pathname.endsWith(".data");
}

/**
 * The path of the page a request's path is for: a data request's as React Router reads it
 * (`/plans.data` is /plans, `/_.data` is /, `/ayuda/_.data` is /ayuda/), any other path itself.
 */
export function pagePathOf(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return isDataPath(pathname) ? pathname.slice(0, -".data".length) : pathname;
}

/**
 * The address of the page a request is for. Loaders and actions receive the request as it came
 * (a client navigation's is the page's data request, `/plans.data?_routes=…`); React Router hands
 * them this address as `url` too.
 */
export function pageUrlOf(requestUrl: string | URL): URL {
  const url = new URL(requestUrl);
  url.pathname = pagePathOf(url.pathname);
  url.searchParams.delete("_routes");
  return url;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}

/**
 * `fetch` as the pages' scripts should use it: reads of this site's `origin` are retried once after
 * a passing failure, and its data requests name `buildVersion`. Requests to other sites, and
 * writes, go through untouched.
 */
export function siteFetch(
  fetchImpl: typeof fetch,
  { origin, buildVersion }: { origin: string; buildVersion: string },
): typeof fetch {
  return async (input, init) => {
    const method = (
      init?.method ?? (input instanceof Request ? input.method : "GET")
    ).toUpperCase();
    const address = input instanceof Request ? input.url : String(input);
    const url = new URL(address, origin);
    // A write is passed on as it came: its body is read once, by the one attempt it gets.
    if (url.origin !== origin || !IDEMPOTENT_READS.has(method)) return fetchImpl(input, init);
    const request = new Request(input instanceof Request ? input : url, init);
    if (isDataPath(url.pathname)) request.headers.set(BUILD_VERSION_HEADER, buildVersion);
    const first = await fetchImpl(request.clone());
    if (!isRetried(request.method, first.status)) return first;
    // Nobody reads the first answer: let its connection go.
    void first.body?.cancel().catch(() => undefined);
    await pause(RETRY_PAUSE_MS, request.signal);
    return fetchImpl(request);
  };
}

/**
 * Installs `siteFetch` as the page's `fetch`, before React Router hydrates: its client navigations
 * and fetchers call the global `fetch`, and offer no hook of their own for it.
 */
export function installSiteFetch(page: Window & typeof globalThis, buildVersion: string) {
  page.fetch = siteFetch(page.fetch.bind(page), {
    origin: page.location.origin,
    buildVersion,
  });
}
