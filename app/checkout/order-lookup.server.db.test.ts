import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { submitInvoiceLookup } from "~/invoicing/invoice-lookup-request.server";
import { RateLimiter } from "~/lib/rate-limit";
import { newBrowser } from "../../tests/support/browser-requests";
import {
  makeOrder,
  makeTopup,
  queuedMail,
  seedCatalogue,
} from "../../tests/support/store-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { requestOrderLink } from "./order-lookup.server";
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

/** A request from this client address (what the limits key a requester by). */
function from(clientAddressKey: string): RequestContext {
  return newBrowser({
    db,
    rateLimiter,
    logger: pino({ level: "silent" }),
    mailer: { nudge() {} },
    clientAddressKey,
    requestId: "r1",
  } as unknown as Partial<RequestContext>).request();
}

/** Twelve networks, each asking five times (within its per-folio limit of a quarter hour). */
const STRANGERS = Array.from({ length: 12 }, (_, index) => `198.51.100.${index + 1}`);
const ASKED_EACH = 5;

describe("the links e-mailed for a folio and its address", () => {
  it("are counted per requester: strangers asking for an order's links never use up the owner's", async () => {
    const order = await makeOrder(db, { email: "ana@example.com" });
    const lookup = { folio: order.folio, correo: "ana@example.com" };
    for (const stranger of STRANGERS) {
      for (let asked = 0; asked < ASKED_EACH; asked += 1) {
        expect(await requestOrderLink(from(stranger), lookup)).toEqual({ kind: "answered" });
      }
    }
    const toStrangers = (await queuedMail(db)).length;
    // A few per stranger: each requester's own count stops them, not the order's.
    expect(toStrangers).toBeLessThanOrEqual(STRANGERS.length * 3);

    await requestOrderLink(from("203.0.113.50"), lookup);
    const mail = await queuedMail(db);
    expect(mail).toHaveLength(toStrangers + 1);
    expect(mail.at(-1)).toMatchObject({
      to: "ana@example.com",
      template: "order_link",
      data: { orderRef: order.ref },
    });
  });

  it("for a top-up's receipt at /facturacion, the same", async () => {
    const topup = await makeTopup(db);
    const ask = (clientAddressKey: string) =>
      submitInvoiceLookup(
        from(clientAddressKey),
        new Request("http://tienda.test/facturacion", {
          method: "POST",
          body: new URLSearchParams({ folio: topup.folio, correo: "carlos@example.com" }),
        }),
      );
    for (const stranger of STRANGERS) {
      for (let asked = 0; asked < ASKED_EACH; asked += 1) await ask(stranger);
    }
    const toStrangers = (await queuedMail(db)).length;
    expect(toStrangers).toBeLessThanOrEqual(STRANGERS.length * 3);

    await ask("203.0.113.50");
    const mail = await queuedMail(db);
    expect(mail).toHaveLength(toStrangers + 1);
    expect(mail.at(-1)).toMatchObject({
      to: "carlos@example.com",
      template: "topup_receipt",
      data: { topupId: topup.id },
    });
  });
});
