import { parseCookieHeader, type SealedCookie } from "./sealed-cookie.server";

/**
 * The cookies of one request: each sealed cookie is opened at most once, what the request writes
 * is what it reads afterwards, and every `Set-Cookie` is collected here and added to the response
 * once, by server.ts (Hydrogen's per-request context does the same). Loaders and actions never
 * build `Set-Cookie` headers themselves.
 */
export interface CookieJar {
  /** The value as this request leaves it: what it wrote, or else what the browser sent. */
  get<T>(cookie: SealedCookie<T>): T | null;
  /** What the browser sent, whatever this request has written since. */
  received<T>(cookie: SealedCookie<T>): T | null;
  set<T>(cookie: SealedCookie<T>, value: T): void;
  clear<T>(cookie: SealedCookie<T>): void;
  /** Reads the cookie as absent for this request, without removing it from the browser. */
  forget<T>(cookie: SealedCookie<T>): void;
  /**
   * Reads a one-time value (a flash message) and removes it once the page that shows it is
   * rendered. A redirect shows nothing, so the value waits for the page after it.
   */
  consume<T>(cookie: SealedCookie<T>): T | null;
  /** Every `Set-Cookie` line this request produced; `redirect` says what the response is. */
  setCookieHeaders(response: { redirect: boolean }): string[];
}

interface Entry {
  value: unknown;
  /**
   * "sent": unchanged; "written": set or cleared; "consumed": cleared unless redirected;
   * "forgotten": absent for this request, left in the browser.
   */
  state: "sent" | "written" | "consumed" | "forgotten";
  lines: string[];
}

export function createCookieJar(cookieHeader: string | null): CookieJar {
  const sent = parseCookieHeader(cookieHeader);
  const entries = new Map<SealedCookie<unknown>, Entry>();

  function entryOf<T>(cookie: SealedCookie<T>): Entry {
    const key = cookie as SealedCookie<unknown>;
    let entry = entries.get(key);
    if (!entry) {
      entry = { value: cookie.read(sent), state: "sent", lines: [] };
      entries.set(key, entry);
    }
    return entry;
  }

  return {
    get<T>(cookie: SealedCookie<T>) {
      return entryOf(cookie).value as T | null;
    },
    received<T>(cookie: SealedCookie<T>) {
      const entry = entryOf(cookie);
      return (entry.state === "sent" ? entry.value : cookie.read(sent)) as T | null;
    },
    set(cookie, value) {
      const entry = entryOf(cookie);
      entry.value = value;
      entry.state = "written";
      // Measured against what the browser holds, so chunks it no longer needs are expired.
      entry.lines = cookie.write(value, sent);
    },
    clear(cookie) {
      const entry = entryOf(cookie);
      entry.value = null;
      entry.state = "written";
      entry.lines = cookie.isPresent(sent) ? cookie.clear(sent) : [];
    },
    forget(cookie) {
      const entry = entryOf(cookie);
      entry.value = null;
      entry.state = "forgotten";
      entry.lines = [];
    },
    consume(cookie) {
      const entry = entryOf(cookie);
      const value = entry.value;
      if (entry.state === "sent" && cookie.isPresent(sent)) {
        entry.state = "consumed";
        entry.lines = cookie.clear(sent);
      }
      return value as ReturnType<typeof cookie.read>;
    },
    setCookieHeaders({ redirect }) {
      return [...entries.values()].flatMap((entry) =>
        entry.state === "written" || (entry.state === "consumed" && !redirect) ? entry.lines : [],
      );
    },
  };
}
