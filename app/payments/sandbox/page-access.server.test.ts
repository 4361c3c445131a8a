import { describe, expect, it } from "vitest";
import { createCookieJar } from "~/lib/cookie-jar.server";
import { createSealedCookie } from "~/lib/sealed-cookie.server";
import type { Payment } from "../payments.server";
import {
  mayUseCheckoutPage,
  mayUseSandboxPage,
  rememberCheckout,
  rememberSandboxPayer,
  SANDBOX_PAYER_MAX_AGE_SECONDS,
  sandboxPayerSchema,
  type SandboxPayer,
} from "./page-access.server";
import type { RequestContext } from "~/context";

const checkout = (index: number) => `chk_${String(index).padStart(16, "0")}`;
const empty: SandboxPayer = { accessId: "payer-id-0123456789", checkouts: [] };
const production = { isProduction: true };

const sandboxPayer = createSealedCookie({
  name: "sandbox_pagos",
  secrets: ["page-access-secret-that-is-long-enough-0123456789"],
  secure: true,
  maxAgeSeconds: SANDBOX_PAYER_MAX_AGE_SECONDS,
  schema: sandboxPayerSchema,
});

/** A request of a browser (its Cookie header) to a server in this environment. */
function requestContext(cookieHeader: string | null, isProduction: boolean) {
  return {
    jar: createCookieJar(cookieHeader),
    cookies: { sandboxPayer },
    config: { isProduction },
  } as unknown as RequestContext;
}

const payment = (provider: string, reference: string | null) =>
  ({ provider, provider_reference: reference }) as Payment;

describe("who may act on the sandbox's payment page", () => {
  it("outside production anyone with the address; in production only the browser sent to pay", () => {
    const payer = rememberCheckout(empty, checkout(1));
    expect(mayUseCheckoutPage({ isProduction: false }, null, checkout(1))).toBe(true);
    expect(mayUseCheckoutPage(production, payer, checkout(1))).toBe(true);
    expect(mayUseCheckoutPage(production, payer, checkout(2))).toBe(false);
    expect(mayUseCheckoutPage(production, null, checkout(1))).toBe(false);
  });

  it("remembers the 20 most recent checkouts, each once, so the cookie stays small", () => {
    let payer = empty;
    for (let index = 1; index <= 25; index++) payer = rememberCheckout(payer, checkout(index));
    expect(rememberCheckout(payer, checkout(25))).toBe(payer);
    expect(payer.checkouts).toHaveLength(20);
    expect(mayUseCheckoutPage(production, payer, checkout(5))).toBe(false);
    expect(mayUseCheckoutPage(production, payer, checkout(25))).toBe(true);
    expect(sandboxPayerSchema.safeParse(payer).success).toBe(true);
  });

  it("the browser the store sends to a sandbox payment holds it in its sealed cookie; another does not", () => {
    const owner = requestContext(null, true);
    rememberSandboxPayer(owner, payment("sandbox", checkout(7)));
    // Another provider's payment has no sandbox page to open.
    rememberSandboxPayer(owner, payment("stripe", "cs_test_123"));
    const cookieHeader = owner.jar
      .setCookieHeaders({ redirect: true })
      .map((line) => line.split(";")[0])
      .join("; ");
    expect(cookieHeader).toMatch(/^__Host-sandbox_pagos=/);
    expect(cookieHeader).not.toContain(checkout(7));

    const sameBrowser = requestContext(cookieHeader, true);
    expect(mayUseSandboxPage(sameBrowser, checkout(7))).toBe(true);
    expect(mayUseSandboxPage(sameBrowser, "cs_test_123")).toBe(false);
    expect(mayUseSandboxPage(requestContext(null, true), checkout(7))).toBe(false);
    // A forged or altered cookie is no cookie.
    const forged = requestContext(
      cookieHeader.replace(/.$/, (last) => (last === "A" ? "B" : "A")),
      true,
    );
    expect(mayUseSandboxPage(forged, checkout(7))).toBe(false);
    expect(mayUseSandboxPage(requestContext(null, false), checkout(7))).toBe(true);
  });
});
