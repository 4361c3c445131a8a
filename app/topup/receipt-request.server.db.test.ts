import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/db.server";
import { type Bss, BssUnavailable } from "~/line/bss";
import { createLineJobs, queueLineJob, topupJobId } from "~/line/line-jobs.server";
import { createBssSimulator } from "~/line/simulator.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { loadTopupApplication } from "./receipt-request.server";
import { createTopup, markTopupPaid, type Topup } from "./topups.server";
import type { RequestContext } from "~/context";

const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
let db: Db;
let bss: Bss;
const nudge = vi.fn();

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  bss = createBssSimulator({ db });
  nudge.mockClear();
});
afterEach(async () => {
  await db.destroy();
});

function context(over: Partial<Bss> = {}) {
  return {
    db,
    bss: { ...bss, ...over },
    lineJobs: { nudge },
    logger,
    requestId: "test",
  } as unknown as RequestContext;
}

async function paidTopup(phoneNumber: string, queued = true): Promise<Topup> {
  const created = await createTopup(db, {
    customerSub: null,
    email: null,
    idempotencyKey: crypto.randomUUID(),
    phoneNumber,
    amount: 200,
  });
  if (created.kind === "conflict") throw new Error("conflict");
  const paidAt = new Date().toISOString();
  await markTopupPaid(db, created.topup.id, paidAt);
  if (queued) {
    await queueLineJob(db, {
      id: topupJobId(created.topup.id),
      kind: "apply-topup",
      payload: {
        topupId: created.topup.id,
        number: phoneNumber,
        amount: 200,
        offerId: "conecta-200",
      },
      now: new Date(paidAt),
    });
  }
  return { ...created.topup, status: "paid", paidAt };
}

const runJobs = (target: Bss = bss) => createLineJobs({ db, bss: target, logger }).runDue();

describe("what a paid top-up did to its line, on its receipt", () => {
  it("says nothing before it is paid, or for a top-up paid before they were applied", async () => {
    const created = await createTopup(db, {
      customerSub: null,
      email: null,
      idempotencyKey: crypto.randomUUID(),
      phoneNumber: "5512345678",
      amount: 200,
    });
    if (created.kind === "conflict") throw new Error("conflict");
    expect(await loadTopupApplication(context(), created.topup)).toEqual({ state: "none" });
    expect(await loadTopupApplication(context(), await paidTopup("5512345678", false))).toEqual({
      state: "none",
    });
  });

  it("is being applied while queued, and hurries the worker", async () => {
    const topup = await paidTopup("5512345678");
    expect(await loadTopupApplication(context(), topup)).toEqual({ state: "pending" });
    expect(nudge).toHaveBeenCalledOnce();
  });

  it("shows the line's new vigencia and data once applied", async () => {
    const topup = await paidTopup("5512345678");
    await runJobs();
    const application = await loadTopupApplication(context(), topup);
    expect(application).toMatchObject({
      state: "applied",
      line: {
        validUntil: expect.stringMatching(/^\d{1,2} de [a-z]+ de \d{4}$/),
        data: { remaining: { value: 10, unit: "GB" }, total: { value: 10, unit: "GB" } },
        unregistered: false,
      },
    });
  });

  it("says a line without a registration stays suspended, its top-up applied", async () => {
    // Of the BSS simulator's test range of lines suspended for want of a registration.
    const topup = await paidTopup("9900030001");
    await runJobs();
    expect(await loadTopupApplication(context(), topup)).toMatchObject({
      state: "applied",
      line: { data: { remaining: { value: 10, unit: "GB" } }, unregistered: true },
    });
  });

  it("still says applied when the BSS cannot be asked about the line now", async () => {
    const topup = await paidTopup("5512345678");
    await runJobs();
    const down = context({
      findLine: () => Promise.reject(new BssUnavailable("down", { reason: "timeout" })),
    });
    expect(await loadTopupApplication(down, topup)).toEqual({ state: "applied", line: null });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "receipt without its line: BSS unavailable" }),
    );
  });

  it("says it was refused when the BSS refused it", async () => {
    const topup = await paidTopup("9900010001");
    await runJobs();
    expect(await loadTopupApplication(context(), topup)).toEqual({ state: "refused" });
  });
});
