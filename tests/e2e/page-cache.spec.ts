import { expect, test } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";

// What the page cache (server.ts, app/server/page-cache.ts) must never change for a visitor.
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
  for (const pathname of ["/", "/plans?datos=10", "/auth/sign-in", "/help-center?q=recarga"]) {
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

test("pages arrive as clean UTF-8, with no NUL bytes where Spanish letters meet a chunk edge", async () => {
  for (const pathname of ["/", "/plans", "/help-center", "/auth/sign-in", "/portabilidad"]) {
    const response = await fetch(`${BASE_URL}${pathname}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.indexOf(0), `${pathname} holds a NUL byte`).toBe(-1);
  }
});
