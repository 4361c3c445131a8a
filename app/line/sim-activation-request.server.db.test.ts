import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Customer } from "~/auth/tokens";
import { shipOrder } from "~/checkout/shipping.server";
import type { Order } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { RateLimiter } from "~/lib/rate-limit";
import { newBrowser } from "../../tests/support/browser-requests";
import { misprintedIccid, testIccid } from "../../tests/support/iccids";
import { makeOrder, seedCatalogue } from "../../tests/support/store-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { createLineJobs } from "./line-jobs.server";
import { accountOfLine } from "./lines.server";
import { createBssSimulator } from "./simulator.server";
import {
  loadSimActivationPage,
  SIM_ACTIVATION_LIMIT,
  submitSimActivation,
} from "./sim-activation-request.server";
import type { RequestContext } from "~/context";

let db: Db;
let rateLimiter: RateLimiter;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await seedCatalogue(db);
  rateLimiter = RateLimiter.inMemory();
});
afterEach(async () => {
  await db.destroy();
});

const logger = pino({ level: "silent" });

function browser() {
  return newBrowser({
    db,
    rateLimiter,
    logger,
    config: { TRUSTED_EMAIL_PROVIDERS: ["google"] },
    clientAddressKey: "203.0.113.7",
    requestId: "r1",
  } as unknown as Partial<RequestContext>);
}

function post(iccid: string): Request {
  return new Request("http://tienda.test/activar", {
    method: "POST",
    body: new URLSearchParams({ iccid }),
  });
}

interface Answered {
  init: { status: number };
  data: { result: { error?: Record<string, string[] | null> } };
}

async function answer(promise: Promise<unknown>): Promise<Answered | Response> {
  return (await promise) as Answered | Response;
}

const customer = (sub: string, email: string, emailVerified = true): Customer => ({
  sub,
  email,
  emailVerified,
  identityProviders: [],
  username: sub,
});

/** A physical order of one Conecta 500 SIM, shipped with this ICCID. */
async function shipped(iccid: string, account: string | null = null): Promise<Order> {
  const order = await makeOrder(db, { items: [{ id: "conecta-500", quantity: 1 }] });
  if (account) {
    await db
      .updateTable("orders")
      .set({ customer_sub: account })
      .where("id", "=", order.ref)
      .execute();
  }
  await shipOrder(db, order.folio, { trackingNumber: "1", iccids: [iccid], actor: "ops:test" });
  return order;
}

async function payloadOf(order: Order) {
  const row = await db
    .selectFrom("line_jobs")
    .select("payload")
    .where("id", "=", `activation:sim:${order.ref}:0`)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.payload) as Record<string, unknown>;
}

describe("a SIM activated at /activar", () => {
  it("queues its line once, and the page follows it from 'activando' to its number", async () => {
    const order = await shipped(testIccid(1), "sub-ana");
    const tab = browser();
    const sent = await answer(submitSimActivation(tab.request(), post(testIccid(1)), null));
    expect(sent).toBeInstanceOf(Response);
    expect((sent as Response).status).toBe(303);
    expect((sent as Response).headers.get("Location")).toBe("/activar");
    expect(await payloadOf(order)).toEqual({
      externalId: `sim:${order.ref}:0`,
      iccid: testIccid(1),
      offerId: "conecta-500",
      accountSub: "sub-ana",
      source: "sim",
      sourceRef: `${order.ref}:0`,
    });
    expect(await loadSimActivationPage(tab.request(), null)).toEqual({
      signedIn: false,
      started: [
        {
          key: `activation:sim:${order.ref}:0`,
          planName: "Conecta 500",
          line: { state: "activating" },
        },
      ],
    });

    // Typed again (another tab): the same activation, not a second line.
    await submitSimActivation(tab.request(), post(testIccid(1)), null);
    expect(await db.selectFrom("line_jobs").select("id").execute()).toHaveLength(1);

    const bss = createBssSimulator({ db });
    await createLineJobs({ db, bss, logger }).runDue();
    const page = await loadSimActivationPage(tab.request(), null);
    expect(page.started).toHaveLength(1);
    const line = page.started[0]!.line;
    if (line.state !== "active") throw new Error(`expected an active line, got ${line.state}`);
    expect(line.number).toMatch(/^\d{10}$/);
    expect(await accountOfLine(db, line.number)).toBe("sub-ana");
    expect((await bss.findLine(line.number))?.package?.offerId).toBe("conecta-500");
  });

  it("refuses an ICCID that is mistyped next to the field, before anything is looked up", async () => {
    const sent = (await answer(
      submitSimActivation(browser().request(), post(misprintedIccid(2)), null),
    )) as Answered;
    expect(sent.init.status).toBe(400);
    expect(sent.data.result.error?.iccid).toEqual(["activation:errors.iccidCheck"]);
  });

  it("answers an ICCID no order shipped the same whoever's it might be, and limits the tries per address", async () => {
    const tab = browser();
    for (let attempt = 0; attempt < SIM_ACTIVATION_LIMIT.limit; attempt += 1) {
      const sent = (await answer(
        submitSimActivation(tab.request(), post(testIccid(100 + attempt)), null),
      )) as Answered;
      expect(sent.init.status).toBe(404);
      expect(sent.data.result.error?.iccid).toEqual(["activation:errors.notShipped"]);
    }
    await shipped(testIccid(3));
    const limited = (await answer(
      submitSimActivation(tab.request(), post(testIccid(3)), null),
    )) as Answered;
    expect(limited.init.status).toBe(429);
    expect(limited.data.result.error?.[""]).toEqual(["activation:errors.limited"]);
    expect(await db.selectFrom("line_jobs").select("id").execute()).toEqual([]);
  });

  it("puts a guest order's line in the account of the customer it belongs to, and no other", async () => {
    const mine = await shipped(testIccid(4));
    await submitSimActivation(
      browser().request(),
      post(testIccid(4)),
      customer("sub-ana", "ANA@example.com"),
    );
    expect(await payloadOf(mine)).toMatchObject({ accountSub: "sub-ana" });

    const someoneElses = await shipped(testIccid(5));
    await submitSimActivation(
      browser().request(),
      post(testIccid(5)),
      customer("sub-eve", "eve@example.com"),
    );
    expect(await payloadOf(someoneElses)).toMatchObject({ accountSub: null });

    const unproved = await shipped(testIccid(6));
    await submitSimActivation(
      browser().request(),
      post(testIccid(6)),
      customer("sub-ana", "ana@example.com", false),
    );
    expect(await payloadOf(unproved)).toMatchObject({ accountSub: null });

    const accounts = await shipped(testIccid(7), "sub-ana");
    await submitSimActivation(
      browser().request(),
      post(testIccid(7)),
      customer("sub-eve", "eve@example.com"),
    );
    expect(await payloadOf(accounts)).toMatchObject({ accountSub: "sub-ana" });
  });
});
