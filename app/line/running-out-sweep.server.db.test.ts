import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { recordAccountEmail } from "~/auth/account-emails.server";
import type { Db } from "~/db/db.server";
import { luhnCheckDigit } from "~/lib/luhn";
import { collectingLogger } from "../../tests/support/mail-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { type Bss, BssUnavailable } from "./bss";
import { linkLine } from "./lines.server";
import { createRunningOutSweep, type RunningOutSweepOptions } from "./running-out-sweep.server";
import { type BssSimulator, createBssSimulator } from "./simulator.server";

let db: Db;
let bss: BssSimulator;
const clock = new Date("2026-11-25T18:00:00.000Z");
const FIVE_GB = 5 * 1024;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  bss = createBssSimulator({ db, now: () => clock });
});
afterEach(async () => {
  await db.destroy();
});

function iccid(serial: number): string {
  const body = `89529900${String(serial).padStart(10, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

let serial = 0;
/** A new Conecta 150 line (5 GB, 30 days) in the account. */
async function lineOf(accountSub: string): Promise<string> {
  serial += 1;
  const { number } = await bss.activateLine({
    externalId: `order-${serial}.1`,
    iccid: iccid(serial),
    offerId: "conecta-150",
  });
  await linkLine(db, { number, accountSub, source: "esim", now: clock });
  return number;
}

/** The customer signed in (with a proved address) some time ago, and has not come back. */
function signedIn(accountSub: string, email: string) {
  return recordAccountEmail(db, { sub: accountSub, email, emailVerified: true }, clock);
}

const runOut = (number: string) => bss.recordUsage(number, { dataMb: FIVE_GB - 200 });

const mails = () =>
  db
    .selectFrom("mail_queue")
    .select(["to_address", "template", "data"])
    .orderBy("to_address")
    .execute();

function sweep(options: Partial<RunningOutSweepOptions> = {}) {
  return createRunningOutSweep({
    db,
    bss,
    logger: collectingLogger().logger,
    now: () => clock,
    ...options,
  });
}

describe("the running-out sweep", () => {
  it("e-mails the account about a line that runs out though nobody opens its page", async () => {
    await signedIn("ana", "ana@example.mx");
    const number = await lineOf("ana");
    await runOut(number);
    const onQueued = vi.fn();

    const report = await sweep({ onQueued }).runBatch();

    expect(report).toMatchObject({ checked: 1, queued: 1, bssUnavailable: false, passDone: true });
    const queued = await mails();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ to_address: "ana@example.mx", template: "line_running_out" });
    expect(JSON.parse(queued[0]!.data)).toMatchObject({ number, accountSub: "ana" });
    expect(onQueued).toHaveBeenCalledTimes(1);
  });

  it("tells a line once per package, however many sweeps run at once (several workers)", async () => {
    await signedIn("ana", "ana@example.mx");
    const number = await lineOf("ana");
    await runOut(number);

    const reports = await Promise.all([sweep(), sweep(), sweep()].map((each) => each.runBatch()));
    await sweep().runBatch();

    expect(reports.reduce((sum, report) => sum + report.queued, 0)).toBe(1);
    expect(await mails()).toHaveLength(1);
  });

  it("leaves alone lines with plenty left, and accounts whose address it does not know", async () => {
    await signedIn("ana", "ana@example.mx");
    await lineOf("ana");
    await runOut(await lineOf("beto"));
    // Carla's address was never proved: it is not kept, so nothing goes to it.
    await recordAccountEmail(
      db,
      { sub: "carla", email: "carla@example.mx", emailVerified: false },
      clock,
    );
    await runOut(await lineOf("carla"));

    const report = await sweep().runBatch();

    expect(report).toMatchObject({ checked: 1, queued: 0 });
    expect(await mails()).toEqual([]);
  });

  it("writes to the address of the account the line is in now, as last recorded", async () => {
    await signedIn("ana", "ana@example.mx");
    await signedIn("beto", "beto@example.mx");
    const number = await lineOf("ana");
    await linkLine(db, { number, accountSub: "beto", source: "added", now: clock }, { move: true });
    await signedIn("beto", "beto.nuevo@example.mx");
    await runOut(number);

    await sweep().runBatch();

    expect((await mails()).map((mail) => mail.to_address)).toEqual(["beto.nuevo@example.mx"]);
  });

  it("goes through every line a batch at a time, and starts again at the next pass", async () => {
    await signedIn("ana", "ana@example.mx");
    const numbers = [];
    for (let i = 0; i < 5; i += 1) numbers.push(await lineOf("ana"));
    const asked: string[] = [];
    const counting: Bss = {
      ...bss,
      findLine: (number) => {
        asked.push(number);
        return bss.findLine(number);
      },
    };
    const sweeper = sweep({ bss: counting, concurrency: 1 });

    const reports = [];
    for (let i = 0; i < 3; i += 1) reports.push(await sweeper.runBatch(2));
    expect(reports.map((report) => [report.checked, report.passDone])).toEqual([
      [2, false],
      [2, false],
      [1, true],
    ]);
    expect(asked).toEqual([...numbers].sort());

    await runOut(numbers[0]!);
    expect(await sweeper.runBatch(2)).toMatchObject({ checked: 2, queued: 1 });
  });

  it("ends the round when the BSS is out of reach, and reads the same lines once it is back", async () => {
    await signedIn("ana", "ana@example.mx");
    const number = await lineOf("ana");
    await runOut(number);
    let down = true;
    const flaky: Bss = {
      ...bss,
      findLine: (asked) =>
        down
          ? Promise.reject(new BssUnavailable("down", { reason: "unreachable" }))
          : bss.findLine(asked),
    };
    const { logger, lines } = collectingLogger();
    const sweeper = sweep({ bss: flaky, logger });

    expect(await sweeper.runBatch()).toMatchObject({
      checked: 0,
      queued: 0,
      bssUnavailable: true,
      passDone: false,
    });
    expect(await mails()).toEqual([]);
    expect(lines).toContainEqual({
      level: "warn",
      line: expect.objectContaining({ msg: "running-out sweep ended: BSS unavailable" }),
    });

    down = false;
    expect(await sweeper.runBatch()).toMatchObject({ checked: 1, queued: 1 });
  });

  it("runs in the background once started, and stops", async () => {
    await signedIn("ana", "ana@example.mx");
    await runOut(await lineOf("ana"));
    const sweeper = sweep();

    sweeper.start(60 * 60_000);
    await vi.waitFor(async () => expect(await mails()).toHaveLength(1));
    await sweeper.stop();
  });
});
