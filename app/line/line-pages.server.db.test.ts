import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/db.server";
import { luhnCheckDigit } from "~/lib/luhn";
import { answerOf, customer, lineRequests } from "../../tests/support/line-requests";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { BssUnavailable } from "./bss";
import { loadAccountLines, loadLinePage } from "./line-pages.server";
import { createTopup, markTopupPaid } from "~/topup/topups.server";
import { linkLine } from "./lines.server";
import type { BssSimulator } from "./simulator.server";

let db: Db;
let lines: ReturnType<typeof lineRequests>;
const ana = customer("ana");

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  lines = lineRequests(db);
});
afterEach(async () => {
  lines.cleanup();
  await db.destroy();
});

/** A Conecta 150 line (5 GB) in Ana's account. */
async function anasLine() {
  const body = "8952990000000000001";
  const { number } = await (lines.bss as BssSimulator).activateLine({
    externalId: "order-1.1",
    iccid: `${body}${luhnCheckDigit(body)}`,
    offerId: "conecta-150",
  });
  await linkLine(db, { number, accountSub: "ana", source: "esim", now: new Date() });
  return number;
}

async function linePage(number: string | undefined) {
  try {
    return answerOf(await loadLinePage(lines.browser(ana).request(), ana, number));
  } catch (thrown) {
    return answerOf(thrown);
  }
}

describe("a line's page", () => {
  it("shows the account's line: figures, 30 days of usage, the usage recorded", async () => {
    const number = await anasLine();
    await (lines.bss as BssSimulator).recordUsage(number, { dataMb: 1024 });
    const page = await linePage(number);
    expect(page.status).toBe(200);
    const body = page.body as {
      figures: { state: string; summary: { data: { usedMb: number; totalMb: number } } };
      usage: { state: string; days: Array<{ dataMb: number }> };
    };
    expect(body.figures.summary.data).toMatchObject({ usedMb: 1024, totalMb: 5 * 1024 });
    expect(body.usage.days).toHaveLength(30);
    expect(body.usage.days.at(-1)).toMatchObject({ dataMb: 1024 });
  });

  it("is a 404 for a number not of this account, whoever's it is, and for one not ten digits", async () => {
    await linkLine(db, {
      number: "5511112222",
      accountSub: "beto",
      source: "added",
      now: new Date(),
    });
    for (const number of ["5511112222", "5533334444", "55-1111", undefined]) {
      expect((await linePage(number)).status, String(number)).toBe(404);
    }
  });

  it("says it could not read the line when the BSS is away: 503, the rest of the page there", async () => {
    const number = await anasLine();
    vi.spyOn(lines.bss, "findLine").mockRejectedValue(
      new BssUnavailable("down", { reason: "timeout" }),
    );
    vi.spyOn(lines.bss, "usageByDay").mockRejectedValue(
      new BssUnavailable("down", { reason: "timeout" }),
    );
    const page = await linePage(number);
    expect(page.status).toBe(503);
    expect(page.body).toMatchObject({
      number,
      figures: { state: "unavailable" },
      usage: { state: "unavailable" },
      topups: [],
    });
    const list = await loadAccountLines(lines.browser(ana).request(), ana);
    expect(list).toEqual([{ number, figures: { state: "unavailable" } }]);
  });

  it("shows a line that moved to another account none of the top-ups the previous account made: that history stays with it", async () => {
    const number = await anasLine();
    const topUp = async (customerSub: string, idempotencyKey: string) => {
      const created = await createTopup(db, {
        customerSub,
        email: `${customerSub}@example.mx`,
        idempotencyKey,
        phoneNumber: number,
        amount: 100,
      });
      if (created.kind !== "created") throw new Error("top-up not created");
      await markTopupPaid(db, created.topup.id, new Date().toISOString());
      return created.topup;
    };
    const anas = await topUp("ana", "ana-1");
    const topupsOf = (page: { body: unknown }) =>
      (page.body as { topups: Array<{ folio: string; receipt: string | null }> }).topups;
    expect(topupsOf(await linePage(number)).map((topup) => topup.folio)).toEqual([anas.folio]);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await linkLine(
      db,
      { number, accountSub: "beto", source: "added", now: new Date() },
      { move: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const beto = customer("beto");
    const betosPage = async () =>
      answerOf(await loadLinePage(lines.browser(beto).request(), beto, number));
    expect(topupsOf(await betosPage())).toEqual([]);
    // What is paid from now on is the new holder's to see, with his own receipts.
    const betos = await topUp("beto", "beto-1");
    expect(topupsOf(await betosPage())).toEqual([
      expect.objectContaining({ folio: betos.folio, receipt: expect.any(String) }),
    ]);
  });

  it("queues the running-out e-mail once, to the account's address, when the line is seen running out", async () => {
    const number = await anasLine();
    await (lines.bss as BssSimulator).recordUsage(number, { dataMb: 5 * 1024 - 200 });
    await linePage(number);
    await loadAccountLines(lines.browser(ana).request(), ana);
    const mails = await db.selectFrom("mail_queue").selectAll().execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: "ana@example.mx", template: "line_running_out" });
    expect(lines.mailer.nudge).toHaveBeenCalledOnce();
  });
});
