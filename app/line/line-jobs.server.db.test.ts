import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { luhnCheckDigit } from "~/lib/luhn";
import { collectingLogger } from "../../tests/support/mail-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { type Bss, BssUnavailable } from "./bss";
import { topupOffer } from "./line";
import {
  activationJobId,
  createLineJobs,
  type LineJobs,
  type LineJobsOptions,
  lineJobLogRef,
  lineJobOutcome,
  queueLineJob,
  queueRegistrationAtBss,
  registrationJobId,
  topupJobId,
} from "./line-jobs.server";
import { linesOfAccount } from "./lines.server";
import { type BssSimulator, createBssSimulator } from "./simulator.server";

const START = new Date("2026-03-10T18:00:00.000Z");

let db: Db;
let clock: Date;
let simulator: BssSimulator;
let log: ReturnType<typeof collectingLogger>;
const workers: LineJobs[] = [];

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  clock = START;
  simulator = createBssSimulator({ db, now: () => clock });
  log = collectingLogger();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await db.destroy();
});

function worker(options: Partial<LineJobsOptions> = {}): LineJobs {
  const created = createLineJobs({
    db,
    bss: simulator,
    logger: log.logger,
    now: () => clock,
    ...options,
  });
  workers.push(created);
  return created;
}

/** The simulator, counting the top-ups it is asked to apply and failing while `down` says so. */
function watchedBss(state: { down: boolean }) {
  const calls: string[] = [];
  const bss: Bss = {
    ...simulator,
    async applyTopup(input) {
      calls.push(input.topupId);
      if (state.down) {
        throw new BssUnavailable("BSS stand-in: applyTopup", { reason: "unreachable" });
      }
      // Slow enough for a concurrent worker to try the same job meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return simulator.applyTopup(input);
    },
  };
  return { bss, calls };
}

function iccid(serial: number): string {
  const body = `89529900${String(serial).padStart(10, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

async function activeLine(serial = 1): Promise<string> {
  const { number } = await simulator.activateLine({
    externalId: `order-1.${serial}`,
    iccid: iccid(serial),
    offerId: "conecta-50",
  });
  return number;
}

function queueTopup(topupId: string, number: string, amount = 100) {
  const offer = topupOffer(amount)!;
  return queueLineJob(db, {
    id: topupJobId(topupId),
    kind: "apply-topup",
    payload: { topupId, number, amount, offerId: offer.offerId },
    now: clock,
  });
}

async function packagesOf(number: string) {
  return db
    .selectFrom("bss_sim_packages")
    .select(["applied_by", "offer_id"])
    .where("number", "=", number)
    .orderBy("position")
    .execute();
}

const skip = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe("applying a paid top-up", () => {
  it("applies it once, even with two workers at the same time", async () => {
    const number = await activeLine();
    const { bss, calls } = watchedBss({ down: false });
    for (let n = 1; n <= 6; n++) await queueTopup(`topup-${n}`, number, 50);
    const [first, second] = await Promise.all([
      worker({ bss, concurrency: 3 }).runDue(),
      worker({ bss, concurrency: 3 }).runDue(),
    ]);
    expect(first.claimed + second.claimed).toBe(6);
    expect(first.done + second.done).toBe(6);
    expect([...calls].sort()).toEqual([
      "topup-1",
      "topup-2",
      "topup-3",
      "topup-4",
      "topup-5",
      "topup-6",
    ]);
    const packages = await packagesOf(number);
    expect(packages.filter((pkg) => pkg.applied_by.startsWith("topup:"))).toHaveLength(6);

    const outcome = await lineJobOutcome(db, topupJobId("topup-1"));
    expect(outcome).toMatchObject({ kind: "apply-topup", state: "done" });
    expect(outcome?.state === "done" && outcome.result).toEqual({
      reference: expect.stringMatching(/^SIM-/),
    });
    // Done is done: later rounds call the BSS for nothing.
    skip(24 * 60 * 60 * 1000);
    expect(await worker({ bss }).runDue()).toEqual({
      claimed: 0,
      done: 0,
      retrying: 0,
      refused: 0,
    });
    expect(calls).toHaveLength(6);
  });

  it("waits while the BSS is out of reach and applies it once it is back", async () => {
    const number = await activeLine();
    const state = { down: true };
    const { bss, calls } = watchedBss(state);
    const jobs = worker({ bss });
    await queueTopup("topup-1", number);

    expect(await jobs.runDue()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await lineJobOutcome(db, topupJobId("topup-1"))).toMatchObject({
      state: "pending",
      attempts: 1,
    });
    // Not due again before its backoff (5 s, then 15 s).
    expect((await jobs.runDue()).claimed).toBe(0);
    skip(5_000);
    expect(await jobs.runDue()).toMatchObject({ claimed: 1, retrying: 1 });
    skip(10_000);
    expect((await jobs.runDue()).claimed).toBe(0);
    expect(await jobs.stats()).toMatchObject({ pending: 1, refused: 0, oldestPendingSeconds: 15 });

    state.down = false;
    skip(5_000);
    expect(await jobs.runDue()).toMatchObject({ claimed: 1, done: 1 });
    expect(calls).toEqual(["topup-1", "topup-1", "topup-1"]);
    expect((await packagesOf(number)).map((pkg) => pkg.applied_by)).toEqual([
      "activation:order-1.1",
      "topup:topup-1",
    ]);
    expect(await jobs.stats()).toEqual({ pending: 0, refused: 0, oldestPendingSeconds: 0 });

    const logged = log.text();
    expect(logged).toContain("line job not done, will retry");
    expect(logged).toContain("unavailable: unreachable");
    expect(logged).toContain(lineJobLogRef(topupJobId("topup-1")));
    // The logs name the job by a digest: neither the line nor the top-up's id (a receipt's key).
    expect(logged).not.toContain(number);
    expect(logged).not.toContain("topup-1");
  });

  it("keeps a refused top-up refused, with the BSS's reason for the operator", async () => {
    const number = await activeLine();
    await simulator.setLineStatus(number, "suspended");
    const { bss, calls } = watchedBss({ down: false });
    const jobs = worker({ bss });
    await queueTopup("topup-1", number);

    expect(await jobs.runDue()).toMatchObject({ claimed: 1, refused: 1 });
    expect(await lineJobOutcome(db, topupJobId("topup-1"))).toMatchObject({
      kind: "apply-topup",
      state: "refused",
      reason: "line-not-active",
    });
    // The line is active again: a refused job still waits for the operator, not for the timer.
    await simulator.setLineStatus(number, "active");
    skip(24 * 60 * 60 * 1000);
    expect((await jobs.runDue()).claimed).toBe(0);
    expect(await queueTopup("topup-1", number)).toBe(false);
    expect((await jobs.runDue()).claimed).toBe(0);
    expect(calls).toEqual(["topup-1"]);
    expect(await jobs.stats()).toMatchObject({ pending: 0, refused: 1 });

    const refusal = log.lines.find((entry) => entry.line.msg === "line job refused by the BSS");
    expect(refusal).toMatchObject({
      level: "error",
      line: { kind: "apply-topup", reason: "line-not-active" },
    });
    expect(log.text()).not.toContain(number);
  });

  it("queues a job once: a repeat, even with other details, changes nothing", async () => {
    const number = await activeLine();
    expect(await queueTopup("topup-1", number, 100)).toBe(true);
    expect(await queueTopup("topup-1", number, 50)).toBe(false);
    expect(await queueTopup("topup-1", "5511112222", 100)).toBe(false);
    await worker().runDue();
    expect(await queueTopup("topup-1", number, 100)).toBe(false);
    expect((await worker().runDue()).claimed).toBe(0);
    expect((await packagesOf(number)).map((pkg) => pkg.offer_id)).toEqual([
      "conecta-50",
      topupOffer(100)!.offerId,
    ]);
  });

  it("is queued with the caller's transaction: rolled back, nothing is applied", async () => {
    const number = await activeLine();
    await db
      .transaction()
      .execute(async (trx) => {
        await queueLineJob(trx, {
          id: topupJobId("topup-1"),
          kind: "apply-topup",
          payload: { topupId: "topup-1", number, amount: 100, offerId: "conecta-100" },
          now: clock,
        });
        throw new Error("the payment was not approved after all");
      })
      .catch(() => undefined);
    expect(await lineJobOutcome(db, topupJobId("topup-1"))).toBeNull();
    expect((await worker().runDue()).claimed).toBe(0);
  });

  it("takes back a job whose worker died mid-call once its lease has run out", async () => {
    const number = await activeLine();
    await queueTopup("topup-1", number);
    // A worker that claims the job and never answers (its process died during the BSS call).
    const hung = worker({
      bss: { ...simulator, applyTopup: () => new Promise(() => undefined) },
      claimLeaseMs: 60_000,
    });
    void hung.runDue();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = worker();
    expect((await other.runDue()).claimed).toBe(0);
    skip(60_000);
    expect(await other.runDue()).toMatchObject({ claimed: 1, done: 1 });
    expect(await lineJobOutcome(db, topupJobId("topup-1"))).toMatchObject({ state: "done" });
    workers.splice(workers.indexOf(hung), 1);
  });

  it("refuses a job that cannot be read instead of calling the BSS with it", async () => {
    await db
      .insertInto("line_jobs")
      .values({
        id: "topup:broken",
        kind: "apply-topup",
        payload: JSON.stringify({ topupId: "broken", number: "55", amount: "cien" }),
        state: "pending",
        attempts: 0,
        next_attempt_at: clock.toISOString(),
        last_error: null,
        result: null,
        created_at: clock.toISOString(),
        done_at: null,
      })
      .execute();
    expect(await worker().runDue()).toMatchObject({ claimed: 1, refused: 1 });
    expect(await lineJobOutcome(db, "topup:broken")).toMatchObject({
      state: "refused",
      reason: "malformed",
    });
  });
});

describe("activating a line", () => {
  it("activates it once and puts the number in the account that bought it", async () => {
    const job = {
      id: activationJobId("order-7.1"),
      kind: "activate-line" as const,
      payload: {
        externalId: "order-7.1",
        iccid: iccid(7),
        offerId: "conecta-200",
        accountSub: "ana",
        source: "esim" as const,
        sourceRef: "order-7.1",
      },
      now: clock,
    };
    expect(await queueLineJob(db, job)).toBe(true);
    await Promise.all([worker().runDue(), worker().runDue()]);
    const outcome = await lineJobOutcome(db, job.id);
    expect(outcome).toEqual({
      kind: "activate-line",
      state: "done",
      result: { number: "5599000001" },
      doneAt: clock.toISOString(),
    });
    expect(await linesOfAccount(db, "ana")).toEqual([
      {
        number: "5599000001",
        source: "esim",
        sourceRef: "order-7.1",
        linkedAt: clock.toISOString(),
      },
    ]);
    expect((await simulator.findLine("5599000001"))?.package?.offerId).toBe("conecta-200");
    expect(await db.selectFrom("bss_sim_activations").select("number").execute()).toHaveLength(1);
  });

  it("activates a guest's line without putting it in any account", async () => {
    await queueLineJob(db, {
      id: activationJobId("order-8.1"),
      kind: "activate-line",
      payload: {
        externalId: "order-8.1",
        iccid: iccid(8),
        offerId: "conecta-100",
        accountSub: null,
        source: "sim",
        sourceRef: "order-8.1",
      },
      now: clock,
    });
    expect(await worker().runDue()).toMatchObject({ done: 1 });
    expect(await db.selectFrom("lines").select("number").execute()).toEqual([]);
  });
});

describe("telling the BSS of a line's registration (decision 0100)", () => {
  /** Of the simulator's test range of lines suspended for want of a registration. */
  const UNREGISTERED = "9900030001";

  it("lifts the suspension at once, in the caller's transaction, before the page shows", async () => {
    const id = await db
      .transaction()
      .execute((trx) =>
        queueRegistrationAtBss(trx, { number: UNREGISTERED, folio: "VIN-2026-000001", now: clock }),
      );
    expect(id).toBe(
      registrationJobId({ number: UNREGISTERED, folio: "VIN-2026-000001", now: clock }),
    );
    // No round has run: runNow does this one job, as the registration's page needs.
    expect(await worker().runNow(id)).toMatchObject({
      kind: "record-registration",
      state: "done",
      result: { superseded: false },
    });
    expect((await simulator.findLine(UNREGISTERED))?.status).toBe("active");
  });

  it("is not queued when the caller's transaction rolls back", async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await queueRegistrationAtBss(trx, {
          number: UNREGISTERED,
          folio: "VIN-2026-000002",
          now: clock,
        });
        throw new Error("the registration failed");
      }),
    ).rejects.toThrow("the registration failed");
    expect(await worker().runDue()).toMatchObject({ claimed: 0 });
    expect((await simulator.findLine(UNREGISTERED))?.status).toBe("unregistered");
  });

  it("waits while the BSS is out of reach, then tells it; runNow never throws for it", async () => {
    const state = { down: true };
    const bss: Bss = {
      ...simulator,
      async recordRegistration(input) {
        if (state.down) {
          throw new BssUnavailable("BSS stand-in: recordRegistration", { reason: "timeout" });
        }
        return simulator.recordRegistration(input);
      },
    };
    const jobs = worker({ bss, retryDelaysMs: [1_000] });
    const id = await queueRegistrationAtBss(db, {
      number: UNREGISTERED,
      folio: "VIN-2026-000003",
      now: clock,
    });
    expect(await jobs.runNow(id)).toMatchObject({ state: "pending", attempts: 1 });
    expect((await simulator.findLine(UNREGISTERED))?.status).toBe("unregistered");
    state.down = false;
    clock = new Date(clock.getTime() + 1_000);
    expect(await jobs.runDue()).toMatchObject({ done: 1 });
    expect((await simulator.findLine(UNREGISTERED))?.status).toBe("active");
  });

  it("tells only the latest news of a line: an older job still waiting is superseded", async () => {
    const number = await activeLine();
    const jobs = worker();
    const lost = await queueRegistrationAtBss(db, { number, folio: null, now: clock });
    clock = new Date(clock.getTime() + 1_000);
    const registered = await queueRegistrationAtBss(db, {
      number,
      folio: "VIN-2026-000004",
      now: clock,
    });
    expect(await lineJobOutcome(db, lost)).toMatchObject({
      state: "done",
      result: { superseded: true },
    });
    expect(await jobs.runDue()).toMatchObject({ claimed: 1, done: 1 });
    expect(await lineJobOutcome(db, registered)).toMatchObject({ state: "done" });
    expect((await simulator.findLine(number))?.status).toBe("active");

    // Found without a registration later: a new job, which suspends it.
    clock = new Date(clock.getTime() + 1_000);
    const again = await queueRegistrationAtBss(db, { number, folio: null, now: clock });
    expect(again).not.toBe(lost);
    await jobs.runNow(again);
    expect((await simulator.findLine(number))?.status).toBe("unregistered");
  });
});
