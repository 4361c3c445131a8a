import { describe, expect, it } from "vitest";
import {
  PageCache,
  carriesAnyCookie,
  cartPageKey,
  pageAudience,
  pageWithNonce,
} from "./page-cache";

const APP_COOKIES = ["__Host-cart", "__Host-session", "__Host-flash"];
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
    cartCookieName: "__Host-cart",
  };

  it("anyone: a first visit, and a visit that carries only cookies the pages never read", () => {
    expect(pageAudience(request)).toBe("anyone");
    expect(pageAudience({ ...request, cookieHeader: "i18n_redirected=es; _ga=GA1.2" })).toBe(
      "anyone",
    );
    expect(carriesAnyCookie("__Host-cartel=1", APP_COOKIES)).toBe(false);
  });

  it("a cart's holder: the cart, whole or in chunks, and no other cookie of ours", () => {
    expect(pageAudience({ ...request, cookieHeader: "__Host-cart=abc" })).toBe("cart-holder");
    expect(
      pageAudience({ ...request, cookieHeader: "_ga=1; __Host-cart.0=a; __Host-cart.1=b" }),
    ).toBe("cart-holder");
  });

  it("nobody else: a session, a flash message, with or without a cart", () => {
    expect(pageAudience({ ...request, cookieHeader: "a=1; __Host-session.0=abc" })).toBeNull();
    expect(
      pageAudience({ ...request, cookieHeader: "__Host-cart=a; __Host-session=b" }),
    ).toBeNull();
    expect(pageAudience({ ...request, cookieHeader: "__Host-cart=a; __Host-flash=b" })).toBeNull();
  });

  it("never a form, a data request or a request with credentials", () => {
    expect(pageAudience({ ...request, method: "POST" })).toBeNull();
    expect(pageAudience({ ...request, method: "HEAD" })).toBeNull();
    expect(pageAudience({ ...request, path: "/plans.data" })).toBeNull();
    expect(pageAudience({ ...request, hasAuthorization: true })).toBeNull();
  });
});

describe("the key of a page as a cart's holder sees it", () => {
  it("is the same for the same contents in any order, and differs for any other cart", () => {
    const one = [
      { id: "plan-a", quantity: 1 },
      { id: "plan-b", quantity: 2 },
    ];
    const key = cartPageKey("/plans", one);
    expect(cartPageKey("/plans", [...one].reverse())).toBe(key);
    expect(cartPageKey("/plans", [{ id: "plan-a", quantity: 1 }])).not.toBe(key);
    expect(cartPageKey("/plans", [one[0]!, { id: "plan-b", quantity: 3 }])).not.toBe(key);
    expect(cartPageKey("/", one)).not.toBe(key);
    expect(cartPageKey("/plans", [{ id: 'x",1],["y', quantity: 1 }])).not.toBe(
      cartPageKey("/plans", [
        { id: "x", quantity: 1 },
        { id: "y", quantity: 1 },
      ]),
    );
  });
});
