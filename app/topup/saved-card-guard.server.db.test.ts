import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { linkLine } from "~/line/lines.server";
import { createCookieJar } from "~/lib/cookie-jar.server";
import type { PaymentChoice } from "~/payments/payment-choice";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { savedCardGuard } from "./topup-request.server";
import type { Customer } from "~/auth/tokens";
import type { RequestContext } from "~/context";

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

const customer: Customer = {
  sub: "sub-ana",
  email: "ana@ejemplo.mx",
  emailVerified: true,
  identityProviders: [],
  username: "sub-ana",
};
const OWN_LINE = "5512345678";
const STRANGER = "5587654321";
const savedCard: PaymentChoice = {
  method: "card",
  savedCardId: "tj_0123456789abcdef",
  saveCard: false,
};

/** A signed-in request whose customer authenticated `minutesAgo` minutes ago. */
function context(minutesAgo: number) {
  const flashes: unknown[] = [];
  const ctx = {
    db,
    jar: createCookieJar(null),
    cookies: { flash: { name: "flash" } },
    session: {
      customer,
      tokens: {
        authenticatedAt: Date.now() - minutesAgo * 60_000,
        idToken: "a.b.c",
        clockDrift: 0,
      },
    },
  } as unknown as RequestContext;
  ctx.jar.set = (cookie: unknown, value: unknown) => void flashes.push([cookie, value]);
  return ctx;
}

describe("a saved card paying a top-up (decision 0134)", () => {
  beforeEach(async () => {
    await linkLine(db, {
      number: OWN_LINE,
      accountSub: customer.sub,
      source: "added",
      now: new Date(),
    });
  });
  const guard = (ctx: RequestContext, phoneNumber: string, payment = savedCard) =>
    savedCardGuard(ctx, { customer, payment, phoneNumber, returnTo: "/my-account/recarga" });

  it("asks for the password when the number is not the account's and the authentication is old", async () => {
    const answer = await guard(context(11), STRANGER);
    expect(answer?.status).toBe(303);
    expect(answer?.headers.get("Location")).toBe(
      "/my-account/confirmar-identidad?redirectTo=%2Fmy-account%2Frecarga",
    );
  });
  it("goes on for one of the account's lines, a recent authentication, or no saved card", async () => {
    expect(await guard(context(11), OWN_LINE)).toBeNull();
    expect(await guard(context(2), STRANGER)).toBeNull();
    expect(
      await guard(context(11), STRANGER, { method: "card", savedCardId: null, saveCard: false }),
    ).toBeNull();
  });
});
