import { readFileSync } from "node:fs";
import type { EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import {
  createHtmlCaches,
  HEAP_CAP_BYTES,
  HTML_CACHE_BUDGET,
  PageCache,
  pageWith,
  type PageCacheOptions,
} from "./html-caches";

const html = '<script nonce="N1">x</script><script nonce="N1">y</script>';
const page = {
  status: 200,
  contentType: "text/html",
  body: Buffer.from(html),
  perAnswer: ["N1"],
};

const cacheWith = (options: Partial<PageCacheOptions>) =>
  new PageCache({
    ttlMs: 30_000,
    maxBytes: 1_000_000,
    maxPageBytes: 1_000,
    maxVariantsPerPath: 20,
    ...options,
  });

describe("the memory budget of the HTML caches", () => {
  it("is stated against npm start's heap cap, and all three caches together stay within an eighth of it", () => {
    const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as {
      scripts: { start: string };
    };
    const capMb = Number(/--max-old-space-size=(\d+)/.exec(packageJson.scripts.start)?.[1]);
    expect(HEAP_CAP_BYTES).toBe(capMb * 1024 * 1024);
    const total =
      HTML_CACHE_BUDGET.anyone + HTML_CACHE_BUDGET.cartHolders + HTML_CACHE_BUDGET.renderMemo;
    expect(total).toBeLessThanOrEqual(HEAP_CAP_BYTES / 8);
    // Even the smallest cache holds a dozen pages of the largest size a cache keeps.
    expect(HTML_CACHE_BUDGET.cartHolders / HTML_CACHE_BUDGET.largestPage).toBeGreaterThanOrEqual(
      12,
    );
  });
});

describe("a page cache", () => {
  it("answers a page until its time is up", () => {
    let now = 1_000;
    const cache = cacheWith({ now: () => now });
    cache.store("/plans", page);
    now += 30_000;
    expect(cache.get("/plans")).toBeDefined();
    now += 1;
    expect(cache.get("/plans")).toBeUndefined();
  });

  it("holds pages up to its size in bytes, the least recently answered going first", () => {
    const one = cacheWith({});
    one.store("/a", page);
    const pageWeight = one.bytes;
    expect(pageWeight).toBeGreaterThan(html.length);

    const cache = cacheWith({ maxBytes: pageWeight * 2 });
    cache.store("/a", page);
    cache.store("/b", page);
    expect(cache.get("/a")).toBeDefined();
    cache.store("/c", page);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/c")).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(pageWeight * 2);
  });

  it("never keeps an oversized page", () => {
    const cache = cacheWith({ maxPageBytes: 80 });
    cache.store("/big", { ...page, body: Buffer.alloc(81, "x") });
    expect(cache.get("/big")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("gives every answer its own nonce, wherever the rendering's stood", () => {
    const cache = cacheWith({});
    cache.store("/", page);
    expect(pageWith(cache.get("/")!, ["N2"]).toString()).toBe(html.replaceAll("N1", "N2"));
    cache.store("/sin-scripts", { ...page, body: Buffer.from("<p>Canadá</p>") });
    expect(pageWith(cache.get("/sin-scripts")!, ["N2"]).toString()).toBe("<p>Canadá</p>");
  });
});

describe("a flood of addresses", () => {
  it("cannot push the other pages out: query variants of one path make room among themselves", () => {
    const cache = cacheWith({ maxVariantsPerPath: 3 });
    cache.store("/", page);
    cache.store("/plans", page);
    for (let n = 0; n < 50; n++) cache.store(`/help-center?q=${n}`, page, "/help-center");
    expect(cache.get("/")).toBeDefined();
    expect(cache.get("/plans")).toBeDefined();
    expect(cache.size).toBe(5);
    // The newest searches stay, the oldest went first.
    expect(cache.get("/help-center?q=49")).toBeDefined();
    expect(cache.get("/help-center?q=47")).toBeDefined();
    expect(cache.get("/help-center?q=46")).toBeUndefined();
    // Storing a kept search again does not push out another.
    cache.store("/help-center?q=48", page, "/help-center");
    expect(cache.get("/help-center?q=47")).toBeDefined();
  });
});

describe("the render memo", () => {
  const services = {
    cookies: {
      cart: { name: "cart", read: () => null },
      formKeys: { name: "form_keys" },
    },
  } as unknown as Parameters<typeof createHtmlCaches>[0]["services"];
  const memoOf = (seconds: number) =>
    createHtmlCaches({ config: { PAGE_CACHE_SECONDS: seconds }, services, routes: {} }).renderMemo;

  const documentOf = (handle: unknown, email: string, nonce: string) => ({
    request: new Request("https://tienda.example/my-account"),
    status: 200,
    nonce,
    viewTokens: [],
    routerContext: {
      staticHandlerContext: {
        matches: [
          { route: { id: "root", path: "" }, params: {} },
          { route: { id: "routes/my-account", path: "my-account" }, params: {} },
        ],
        loaderData: { root: {}, "routes/my-account": { email } },
        actionData: null,
        errors: null,
      },
      routeModules: { root: {}, "routes/my-account": { handle } },
    } as unknown as EntryContext,
  });

  it("answers the same data with the bytes rendered before, with this answer's nonce", () => {
    const memo = memoOf(10)!;
    const first = memo.placeFor(documentOf({ renderMemo: true }, "ana@example.com", "N1"))!;
    expect(first.kept).toBeUndefined();
    first.keep(Buffer.from('<p>ana@example.com</p><script nonce="N1"></script>'));
    const again = memo.placeFor(documentOf({ renderMemo: true }, "ana@example.com", "N2"))!;
    expect(again.kept?.toString()).toBe('<p>ana@example.com</p><script nonce="N2"></script>');
    const other = memo.placeFor(documentOf({ renderMemo: true }, "bea@example.com", "N3"))!;
    expect(other.kept).toBeUndefined();
  });

  it("keeps only pages whose routes opt in, and nothing with PAGE_CACHE_SECONDS=0", () => {
    const memo = memoOf(10)!;
    expect(memo.placeFor(documentOf({ pageCache: true }, "ana@example.com", "N1"))).toBeNull();
    expect(memo.placeFor(documentOf(undefined, "ana@example.com", "N1"))).toBeNull();
    expect(memoOf(0)).toBeNull();
  });
});
