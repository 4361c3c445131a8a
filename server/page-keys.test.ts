import { describe, expect, it } from "vitest";
import { queryReadBy } from "~/lib/page-caching";
import { PageCache, pageWith } from "./html-caches";
import {
  carriesAnyCookie,
  cartPageKey,
  pageAddressKey,
  pageAudience,
  pageCachePaths,
  renderedPageKey,
  routePathname,
} from "./page-keys";

const APP_COOKIES = ["__Host-cart", "__Host-session", "__Host-flash"];

describe("a page's address as its key", () => {
  it("keeps only the query parameters the page reads, in one order", () => {
    const read = ["q", "pregunta"];
    expect(pageAddressKey("/help-center?q=recarga", read)).toEqual({
      key: "/help-center?q=recarga",
      exact: true,
      variantOf: "/help-center",
    });
    expect(pageAddressKey("/help-center?pregunta=3&q=a%20b", read).key).toBe(
      pageAddressKey("/help-center?q=a+b&pregunta=3", read).key,
    );
    expect(pageAddressKey("/help-center?q=recarga&utm_source=correo", read)).toEqual({
      key: "/help-center?q=recarga",
      exact: false,
      variantOf: "/help-center",
    });
  });

  it("answers any junk query with the page without it, and keeps nothing rendered for one", () => {
    for (const address of ["/?x=1", "/?x=2", "/?=", "/?x", "/?q=1"]) {
      expect(pageAddressKey(address, [])).toEqual({ key: "/", exact: false });
    }
    expect(pageAddressKey("/", [])).toEqual({ key: "/", exact: true });
    expect(pageAddressKey("/?", [])).toEqual({ key: "/", exact: true });
  });

  it("gathers what every matched route reads", () => {
    expect(
      queryReadBy([{ i18n: ["common"] }, undefined, { query: ["q"] }, { query: ["q", "p"] }]),
    ).toEqual(["q", "p"]);
  });

  it("is the path the routes spell, parameters filled in", () => {
    const match = (path: string | undefined, params: Record<string, string> = {}) => ({
      route: { path },
      params,
    });
    expect(routePathname([match(""), match(undefined)])).toBe("/");
    expect(routePathname([match(""), match("plans")])).toBe("/plans");
    expect(routePathname([match(""), match("auth/sign-in")])).toBe("/auth/sign-in");
    const folio = { folio: "REC-2026 1" };
    expect(
      routePathname([match(""), match("my-account", folio), match("recarga/:folio", folio)]),
    ).toBe("/my-account/recarga/REC-2026%201");
    expect(routePathname([match(""), match("*", { "*": "a/b c" })])).toBe("/a/b%20c");
    expect(routePathname([match(""), match(":lang?/plans")])).toBe("/plans");
    expect(routePathname([match(""), match(":id")])).toBeNull();
  });
});

describe("the paths answered before React Router runs", () => {
  const route = (
    id: string,
    options: { parentId?: string; path?: string; index?: boolean; handle?: unknown },
  ) => ({ id, ...options, module: { handle: options.handle } });
  const routes = Object.fromEntries(
    [
      route("root", { path: "" }),
      route("routes/_index", { parentId: "root", index: true, handle: { pageCache: true } }),
      route("routes/plans", {
        parentId: "root",
        path: "plans",
        handle: { pageCache: true, query: ["sim_type"] },
      }),
      route("routes/auth.sign-in", {
        parentId: "root",
        path: "auth/sign-in",
        handle: { pageCache: true, query: ["redirectTo"] },
      }),
      route("routes/checkout", { parentId: "root", path: "checkout", handle: {} }),
      route("routes/plan", { parentId: "root", path: "plans/:id", handle: { pageCache: true } }),
      route("routes/cuenta", { parentId: "root", path: "cuenta", handle: { pageCache: true } }),
      route("routes/cuenta._index", { parentId: "routes/cuenta", index: true }),
      route("routes/ayuda", { parentId: "root", path: "ayuda", handle: { pageCache: true } }),
      route("routes/ayuda.faq", {
        parentId: "routes/ayuda",
        path: "faq",
        handle: { pageCache: true, query: ["q"] },
      }),
      route("routes/$", { parentId: "root", path: "*", handle: { pageCache: true } }),
    ].map((entry) => [entry.id, entry]),
  );

  it("are the opted-in routes at their own spelling, with what each reads", () => {
    expect(Object.fromEntries(pageCachePaths(routes))).toEqual({
      "/": [],
      "/plans": ["sim_type"],
      "/auth/sign-in": ["redirectTo"],
      "/ayuda": [],
      "/ayuda/faq": ["q"],
    });
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

describe("the key of a page rendered from its data", () => {
  const state = (loaderData: Record<string, unknown>) => ({
    loaderData,
    actionData: null,
    errors: null,
  });
  const account = { root: { cart: 2 }, "routes/my-account._index": { email: "ana@example.com" } };

  const keyOf = (url: string, loaderData: Record<string, unknown>, tokens: string[] = []) =>
    renderedPageKey(url, 200, state(loaderData), tokens)?.key;

  it("is the same for the same address and data, whoever asks", () => {
    expect(keyOf("https://x/my-account", account)).toBe(
      keyOf("https://x/my-account", structuredClone(account)),
    );
  });

  it("differs with the address or any value the loaders returned", () => {
    const key = keyOf("https://x/my-account", account);
    expect(keyOf("https://x/my-account?x=1", account)).not.toBe(key);
    const other = { ...account, "routes/my-account._index": { email: "bea@example.com" } };
    expect(keyOf("https://x/my-account", other)).not.toBe(key);
  });

  it("keeps apart what JSON would merge but the page's embedded data does not", () => {
    const keyOfValue = (value: unknown) => keyOf("https://x/", { root: { value } });
    const distinct = [
      keyOfValue(undefined),
      keyOf("https://x/", { root: {} }),
      keyOfValue(null),
      keyOfValue(Number.NaN),
      keyOfValue(0),
      keyOfValue(-0),
      keyOfValue(new Date("2026-11-24T00:00:00.000Z")),
      keyOfValue("2026-11-24T00:00:00.000Z"),
      keyOfValue("\u0000undefined"),
    ];
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it("is none for an action's answer, an error, another status or data that is not plain", () => {
    expect(
      renderedPageKey("https://x/", 200, { ...state(account), actionData: { x: 1 } }),
    ).toBeNull();
    expect(
      renderedPageKey("https://x/", 200, { ...state(account), errors: { root: "x" } }),
    ).toBeNull();
    expect(renderedPageKey("https://x/", 404, state(account))).toBeNull();
    expect(keyOf("https://x/", { root: { later: Promise.resolve(1) } })).toBeUndefined();
    expect(keyOf("https://x/", { root: { lines: new Map() } })).toBeUndefined();
  });

  it("counts a form's view token by where it stands, and each answer gets its own back", () => {
    const form = (a: string, b: string) => ({ root: { a }, "routes/recarga": { key: b, a } });
    const first = renderedPageKey("https://x/recarga", 200, state(form("t1", "t2")), ["t2", "t1"])!;
    const second = renderedPageKey("https://x/recarga", 200, state(form("u1", "u2")), [
      "u1",
      "u2",
    ])!;
    expect(second.key).toBe(first.key);
    // In the order they stand in the data, whatever order the loaders issued them in.
    expect(first.viewTokens).toEqual(["t1", "t2"]);
    expect(second.viewTokens).toEqual(["u1", "u2"]);
    // Another token in the second place is another page.
    expect(keyOf("https://x/recarga", form("t1", "t1"), ["t1"])).not.toBe(first.key);

    const cache = new PageCache({
      ttlMs: 1_000,
      maxBytes: 100_000,
      maxPageBytes: 10_000,
      maxVariantsPerPath: 20,
    });
    const rendered = '<input value="t2"><script nonce="N1">{"a":"t1","key":"t2"}</script>';
    cache.store(first.key, {
      status: 200,
      contentType: "text/html",
      body: Buffer.from(rendered),
      perAnswer: ["N1", ...first.viewTokens],
    });
    expect(pageWith(cache.get(second.key)!, ["N2", ...second.viewTokens]).toString()).toBe(
      '<input value="u2"><script nonce="N2">{"a":"u1","key":"u2"}</script>',
    );
  });
});
