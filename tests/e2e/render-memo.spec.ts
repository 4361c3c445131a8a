import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Cookie } from "@playwright/test";
import type { ServerBuild } from "react-router";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { createCustomer, signInTo } from "./support/customers";
import { askForCode, smsCode, typeCode, uniqueLineNumber } from "./support/lines";

// The render memo (server/html-caches.ts, decisions 0077 and 0084) answers a page with the bytes of
// an earlier rendering of the same loader data. That is right only while nothing but loader data
// reaches the render: no clock, no random value. Here every route that opts in
// (`handle.renderMemo`) is rendered twice in the same state, on a server that keeps nothing
// (PAGE_CACHE_SECONDS=0), and the two answers must be the same bytes but for the values each
// answer has of its own (the CSP nonce, a form's key). Plain HTTP, so one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP-level checks run once");

/** A line the signed-in customer adds to their account, for its page. */
const LINE = uniqueLineNumber();

/** Where each opted-in page is seen: every route that opts in and has no opted-in child. */
const ADDRESSES: Record<string, string> = {
  "routes/_index": "/",
  "routes/plans": "/plans?min_data_gb=10",
  "routes/cart": "/cart",
  "routes/help-center": "/help-center?q=recarga",
  "routes/auth.sign-in": "/auth/sign-in?redirectTo=%2Fmy-account",
  "routes/my-account._index": "/my-account",
  "routes/my-account.recarga": "/my-account/recarga",
  "routes/recarga": "/recarga",
  "routes/my-account.lineas._index": "/my-account/lineas",
  "routes/my-account.lineas.$numero": `/my-account/lineas/${LINE}`,
};

async function optedInRoutes() {
  const build = (await import(
    pathToFileURL(path.resolve("build/server/index.js")).href
  )) as ServerBuild;
  const routes = Object.values(build.routes).filter(
    (route) => (route?.module.handle as { renderMemo?: boolean } | undefined)?.renderMemo === true,
  );
  return routes.filter((route) => !routes.some((child) => child?.parentId === route?.id));
}

/** The Cookie header of a client's cookies: every visit in one state sends the same. */
async function cookieHeaderOf(client: { storageState: () => Promise<{ cookies: Cookie[] }> }) {
  const { cookies } = await client.storageState();
  return cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
}

/**
 * One answer, with the values of its own replaced by where they stand. Sent with a fixed Cookie
 * header: what an answer sets (a message, a refreshed cookie) does not change the next visit.
 */
async function visit(base: string, address: string, cookie: string) {
  const response = await fetch(`${base}${address}`, { headers: { cookie }, redirect: "manual" });
  let body = await response.text();
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  if (nonce) body = body.replaceAll(nonce, "NONCE");
  const formKeys = [...body.matchAll(/name="idempotency_key" value="([^"]+)"/g)].map(
    (match) => match[1]!,
  );
  [...new Set(formKeys)].forEach((key, slot) => {
    body = body.replaceAll(key, `FORM-KEY-${slot}`);
  });
  return { status: response.status, location: response.headers.get("location"), body };
}

test("every page that opts into the render memo is the same bytes when rendered twice from the same data", async ({
  playwright,
  browser,
}) => {
  test.setTimeout(180_000);
  const routes = await optedInRoutes();
  expect(routes.map((route) => route!.id).sort()).toEqual(Object.keys(ADDRESSES).sort());

  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = startServer({ NODE_ENV: "test", PORT: String(port), PAGE_CACHE_SECONDS: "0" });
  await waitForHealth(base, server);
  const anyone = await playwright.request.newContext({ baseURL: base });
  const cartHolder = await playwright.request.newContext({ baseURL: base });
  const customerBrowser = await browser.newContext({ baseURL: base });
  try {
    const planId = /name="id" value="([^"]+)"/.exec(await (await anyone.get("/plans")).text())?.[1];
    expect(planId).toBeTruthy();
    const added = await cartHolder.post("/cart", {
      form: { intent: "add", id: planId! },
      headers: { Origin: base },
      maxRedirects: 0,
    });
    expect(added.status()).toBe(303);
    // The page after the redirect shows (and clears) the "added" message.
    await cartHolder.get("/cart");
    const customer = await createCustomer(anyone, "memoria");
    const page = await customerBrowser.newPage();
    await signInTo(page, customer, "/my-account/lineas");
    await askForCode(page, LINE);
    await typeCode(page, await smsCode(anyone, LINE), "Agregar la línea");
    await expect(page).toHaveURL(`/my-account/lineas/${LINE}`);

    const rendered = new Set<string>();
    for (const [who, cookie] of [
      ["anyone", ""],
      ["a cart's holder", await cookieHeaderOf(cartHolder)],
      ["a signed-in customer", await cookieHeaderOf(customerBrowser)],
    ] as const) {
      for (const address of Object.values(ADDRESSES)) {
        const first = await visit(base, address, cookie);
        const second = await visit(base, address, cookie);
        const what = `${address} for ${who}`;
        expect(second.status, what).toBe(first.status);
        expect(second.location, what).toBe(first.location);
        expect(second.body, `${what}: two renderings of the same data differ`).toBe(first.body);
        if (first.status === 200) rendered.add(address);
      }
    }
    // Each page was rendered whole at least once (not only redirected).
    expect([...rendered].sort()).toEqual(Object.values(ADDRESSES).sort());
  } finally {
    await customerBrowser.close();
    await cartHolder.dispose();
    await anyone.dispose();
    await stopServer(server);
  }
});
