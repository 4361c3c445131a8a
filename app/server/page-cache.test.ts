import { describe, expect, it } from "vitest";
import { PageCache, carriesAnyCookie, isCacheablePageRequest, pageWithNonce } from "./page-cache";

const APP_COOKIES = ["__Host-cart", "__Host-session"];
const html = '<script nonce="N1">x</script><script nonce="N1">y</script>';
const page = { status: 200, contentType: "text/html", body: Buffer.from(html), nonce: "N1" };

describe("the page cache", () => {
  it("answers a page until its time is up", () => {
    let now = 1_000;
    const cache = new PageCache({
      ttlMs: 30_000,
      maxEntries: 10,
      maxBodyBytes: 1_000,
      now: () => now,
    });
    cache.store("/plans", page);
    now += 29_999;
    expect(cache.get("/plans")).toBeDefined();
    now += 1;
    expect(cache.get("/plans")).toBeUndefined();
  });

  it("forgets the oldest page when full and never keeps an oversized one", () => {
    const cache = new PageCache({ ttlMs: 30_000, maxEntries: 2, maxBodyBytes: 80 });
    cache.store("/a", page);
    cache.store("/b", page);
    cache.store("/c", page);
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.get("/c")).toBeDefined();
    cache.store("/big", { ...page, body: Buffer.alloc(81, "x") });
    expect(cache.get("/big")).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("gives every answer its own nonce, wherever the rendering's stood", () => {
    const cache = new PageCache({ ttlMs: 30_000, maxEntries: 2, maxBodyBytes: 1_000 });
    cache.store("/", page);
    expect(pageWithNonce(cache.get("/")!, "N2").toString()).toBe(html.replaceAll("N1", "N2"));
    cache.store("/sin-scripts", { ...page, body: Buffer.from("<p>Canadá</p>") });
    expect(pageWithNonce(cache.get("/sin-scripts")!, "N2").toString()).toBe("<p>Canadá</p>");
  });
});

describe("which requests a cached page may answer", () => {
  const request = {
    method: "GET",
    path: "/plans",
    cookieHeader: undefined,
    hasAuthorization: false,
    appCookieNames: APP_COOKIES,
  };

  it("a first visit, and a visit that carries only cookies the pages never read", () => {
    expect(isCacheablePageRequest(request)).toBe(true);
    expect(
      isCacheablePageRequest({ ...request, cookieHeader: "i18n_redirected=es; _ga=GA1.2" }),
    ).toBe(true);
  });

  it("never a visitor with a cart or a session, whole or in chunks", () => {
    expect(isCacheablePageRequest({ ...request, cookieHeader: "__Host-cart=abc" })).toBe(false);
    expect(isCacheablePageRequest({ ...request, cookieHeader: "a=1; __Host-session.0=abc" })).toBe(
      false,
    );
    expect(carriesAnyCookie("__Host-cartel=1", APP_COOKIES)).toBe(false);
  });

  it("never a form, a data request or a request with credentials", () => {
    expect(isCacheablePageRequest({ ...request, method: "POST" })).toBe(false);
    expect(isCacheablePageRequest({ ...request, method: "HEAD" })).toBe(false);
    expect(isCacheablePageRequest({ ...request, path: "/plans.data" })).toBe(false);
    expect(isCacheablePageRequest({ ...request, hasAuthorization: true })).toBe(false);
  });
});
