import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { createCustomer, signInTo } from "./support/customers";

// What the page caches (server/html-caches.ts) must never change for a visitor.
// Plain HTTP, so one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP-level checks run once");

async function anonymousVisit(pathname: string) {
  const response = await fetch(`${BASE_URL}${pathname}`);
  const html = await response.text();
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  return { response, html, nonce: nonce ?? "" };
}

const cartCount = (html: string) => /data-testid="cart-count"[^>]*>(\d+)</.exec(html)?.[1];

test("anonymous visitors get the same page, each answer with its own script nonce", async () => {
  // /help-center whole is the largest kept page: more than a socket buffer, even compressed.
  for (const pathname of [
    "/",
    "/plans?datos=10",
    "/auth/sign-in",
    "/help-center?q=recarga",
    "/help-center",
  ]) {
    const first = await anonymousVisit(pathname);
    const second = await anonymousVisit(pathname);
    expect(first.response.status).toBe(200);
    expect(second.response.status).toBe(200);
    expect(first.nonce).not.toBe("");
    expect(second.nonce).not.toBe(first.nonce);
    for (const visit of [first, second]) {
      const scripts = visit.html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script).toContain(`nonce="${visit.nonce}"`);
    }
    expect(second.html.replaceAll(second.nonce, "NONCE")).toBe(
      first.html.replaceAll(first.nonce, "NONCE"),
    );
  }
});

test("a visitor with a cart sees their own cart on a page others get from the cache", async ({
  playwright,
}) => {
  const anonymousBefore = await anonymousVisit("/plans");
  expect(cartCount(anonymousBefore.html)).toBe("0");
  const planId = /name="id" value="([^"]+)"/.exec(anonymousBefore.html)?.[1];
  expect(planId).toBeTruthy();

  const shopper = await playwright.request.newContext({ baseURL: BASE_URL });
  try {
    const added = await shopper.post("/cart", {
      form: { intent: "add", id: planId! },
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(added.status()).toBe(303);
    expect(cartCount(await (await shopper.get("/plans")).text())).toBe("1");
  } finally {
    await shopper.dispose();
  }
  expect(cartCount((await anonymousVisit("/plans")).html)).toBe("0");
});

test("visitors holding the same cart share a kept page; each sees their own cart, answered privately", async ({
  playwright,
}) => {
  const plansHtml = (await anonymousVisit("/plans")).html;
  const planIds = [...plansHtml.matchAll(/name="id" value="([^"]+)"/g)].map((match) => match[1]!);
  const [first, second] = [...new Set(planIds)];
  expect(second).toBeTruthy();
  const shopperWith = async (ids: string[]) => {
    const shopper = await playwright.request.newContext({ baseURL: BASE_URL });
    for (const id of ids) {
      const added = await shopper.post("/cart", {
        form: { intent: "add", id },
        headers: { Origin: BASE_URL },
        maxRedirects: 0,
      });
      expect(added.status()).toBe(303);
    }
    // The page after the redirect shows (and clears) the "added" message.
    await shopper.get("/cart");
    return shopper;
  };
  const [one, alsoOne, two] = [
    await shopperWith([first!]),
    await shopperWith([first!]),
    await shopperWith([first!, second!]),
  ];
  try {
    const pageOf = async (shopper: typeof one, pathname: string) => {
      const response = await shopper.get(pathname);
      expect(response.status()).toBe(200);
      expect(response.headers()["cache-control"]).toContain("no-store");
      const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "");
      return (await response.text()).replaceAll(nonce?.[1] ?? "", "NONCE");
    };
    for (const pathname of ["/", "/plans", "/cart"]) {
      const seen = await pageOf(one, pathname);
      expect(await pageOf(one, pathname)).toBe(seen);
      expect(await pageOf(alsoOne, pathname)).toBe(seen);
      expect(cartCount(seen)).toBe("1");
      expect(cartCount(await pageOf(two, pathname))).toBe("2");
    }
    const cartOfOne = await pageOf(one, "/cart");
    const cartOfTwo = await pageOf(two, "/cart");
    expect(cartOfOne).toContain(`value="${first}"`);
    expect(cartOfOne).not.toContain(`value="${second}"`);
    expect(cartOfTwo).toContain(`value="${second}"`);
  } finally {
    for (const shopper of [one, alsoOne, two]) await shopper.dispose();
  }
  expect(cartCount((await anonymousVisit("/plans")).html)).toBe("0");
});

test("signed-in customers: each view of a kept page has its own form key and nonce, and each customer sees only their own page", async ({
  browser,
  request,
}) => {
  const signedIn = async () => {
    const customer = await createCustomer(request, "guardada");
    const context = await browser.newContext({ baseURL: BASE_URL });
    const page = await context.newPage();
    await signInTo(page, customer, "/my-account");
    return { customer, context, page };
  };
  const ana = await signedIn();
  const bea = await signedIn();
  try {
    const view = async (who: typeof ana, pathname: string) => {
      const response = await who.page.request.get(pathname);
      expect(response.status()).toBe(200);
      expect(response.headers()["cache-control"]).toContain("no-store");
      const html = await response.text();
      const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "");
      const formKey = /name="idempotency_key" value="([^"]+)"/.exec(html)?.[1];
      return { html, nonce: nonce?.[1] ?? "", formKey: formKey ?? "" };
    };
    const first = await view(ana, "/my-account/recarga");
    const second = await view(ana, "/my-account/recarga");
    expect(first.formKey).toMatch(/^[\w-]{16}\.[\w-]{22}$/);
    // Two views are two top-ups: one key each, in the form and in the page's data alike.
    expect(second.formKey).not.toBe(first.formKey);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.html).not.toContain(first.formKey);
    expect(second.html.split(second.formKey).length).toBe(first.html.split(first.formKey).length);
    const normalised = (seen: typeof first) =>
      seen.html.replaceAll(seen.formKey, "KEY").replaceAll(seen.nonce, "NONCE");
    expect(normalised(second)).toBe(normalised(first));

    for (let round = 0; round < 2; round += 1) {
      const ownOf = (await view(ana, "/my-account")).html;
      const beasOwn = (await view(bea, "/my-account")).html;
      expect(ownOf).toContain(ana.customer.email);
      expect(ownOf).not.toContain(bea.customer.email);
      expect(beasOwn).toContain(bea.customer.email);
      expect(beasOwn).not.toContain(ana.customer.email);
    }
  } finally {
    await ana.context.close();
    await bea.context.close();
  }
});

test("pages arrive as clean UTF-8, with no NUL bytes where Spanish letters meet a chunk edge", async () => {
  for (const pathname of ["/", "/plans", "/help-center", "/auth/sign-in", "/portabilidad"]) {
    const response = await fetch(`${BASE_URL}${pathname}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.indexOf(0), `${pathname} holds a NUL byte`).toBe(-1);
  }
});

test("pages kept for anyone tell browsers and shared caches to ask again every time", async () => {
  for (const pathname of ["/", "/plans", "/help-center?q=recarga", "/auth/sign-in"]) {
    // The first answer may be rendered, the second comes from memory: both say the same.
    for (const visit of [1, 2]) {
      const response = await fetch(`${BASE_URL}${pathname}`);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get("cache-control"), `${pathname} #${visit}`).toBe("no-cache");
    }
  }
});

test("a flood of query strings the pages do not read leaves the home page and the plans in the cache", async () => {
  test.setTimeout(180_000);
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  // A long life for kept pages: only the flood, never the clock, could push them out.
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    PAGE_CACHE_SECONDS: "600",
    LOG_LEVEL: "info",
  });
  await waitForHealth(base, server);
  const visit = async (pathname: string) => {
    const requestId = randomUUID();
    const response = await fetch(`${base}${pathname}`, { headers: { "X-Request-Id": requestId } });
    await response.arrayBuffer();
    expect(response.status, pathname).toBe(200);
    return requestId;
  };
  /** How the request log says the page was answered. */
  const answeredFromMemory = (requestId: string) =>
    expect
      .poll(() => {
        for (const line of server.output.join("").split("\n")) {
          if (!line.includes(requestId) || !line.startsWith("{")) continue;
          const entry = JSON.parse(line) as { msg: string; pageCache?: string };
          if (entry.msg === "request") return entry.pageCache ?? "rendered";
        }
        return "not logged yet";
      })
      .toBe("hit");
  try {
    await visit("/");
    await visit("/plans");
    await answeredFromMemory(await visit("/"));
    // More distinct addresses than the cache holds: junk parameters no page reads, and searches
    // the help centre does read, each another page.
    const flood = Array.from({ length: 250 }, (_, n) => [
      `/?x=${n}`,
      `/plans?utm_source=correo-${n}`,
      `/help-center?q=${n}`,
    ]).flat();
    for (let start = 0; start < flood.length; start += 10) {
      await Promise.all(flood.slice(start, start + 10).map(visit));
    }
    await answeredFromMemory(await visit("/"));
    await answeredFromMemory(await visit("/plans"));
    // A junk parameter is answered with the page it does not change.
    await answeredFromMemory(await visit("/?x=otra-vez"));
  } finally {
    await stopServer(server);
  }
});
