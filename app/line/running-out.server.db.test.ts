import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { luhnCheckDigit } from "~/lib/luhn";
import { composeMail, type ComposeDeps } from "~/mail/compose.server";
import { collectingLogger } from "../../tests/support/mail-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { BssUnavailable } from "./bss";
import { linkLine } from "./lines.server";
import { noteRunningOut } from "./running-out.server";
import { type BssSimulator, createBssSimulator } from "./simulator.server";

let db: Db;
let bss: BssSimulator;
let clock: Date;
const START = new Date("2026-11-25T18:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  clock = START;
  bss = createBssSimulator({ db, now: () => clock });
});
afterEach(async () => {
  await db.destroy();
});

function iccid(serial: number): string {
  const body = `89529900${String(serial).padStart(10, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** A Conecta 150 line (5 GB, 30 days) in Ana's account. */
async function anasLine(): Promise<string> {
  const { number } = await bss.activateLine({
    externalId: "order-1.1",
    iccid: iccid(1),
    offerId: "conecta-150",
  });
  await linkLine(db, { number, accountSub: "ana", source: "esim", now: clock });
  return number;
}

async function note(number: string) {
  const line = await bss.findLine(number);
  return noteRunningOut(db, {
    accountSub: "ana",
    email: "ana@example.mx",
    line: line!,
    now: clock,
  });
}

const queued = () => db.selectFrom("mail_queue").selectAll().execute();

function deps(overrides: Partial<ComposeDeps> = {}): ComposeDeps {
  return {
    db,
    origin: "https://www.conectamovil.mx",
    esim: createSandboxProvisioner({ secret: "s".repeat(40) }),
    logger: collectingLogger().logger,
    bss,
    now: () => clock,
    ...overrides,
  };
}

describe("the running-out e-mail", () => {
  it("is queued once per package when the data drops to 10 %, and tells what is left", async () => {
    const number = await anasLine();
    expect(await note(number)).toBe(false);
    await bss.recordUsage(number, { dataMb: 5 * 1024 - 500 });
    expect(await note(number)).toBe(true);
    expect(await note(number)).toBe(false);
    const mails = await queued();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: "ana@example.mx", template: "line_running_out" });

    const composed = await composeMail(deps(), mails[0]!);
    if (composed.kind !== "ready") throw new Error(JSON.stringify(composed));
    expect(composed.mail.subject).toContain("le quedan pocos datos");
    expect(composed.mail.text).toContain("Datos restantes: 500 MB de 5 GB");
  });

  it("is queued again for the next package, once it runs out too", async () => {
    const number = await anasLine();
    await bss.recordUsage(number, { dataMb: 5 * 1024 - 100 });
    expect(await note(number)).toBe(true);
    await bss.applyTopup({ topupId: "t1", number, amount: 150, offerId: "conecta-150" });
    // 5 GB more: no longer short.
    expect(await note(number)).toBe(false);
    await bss.recordUsage(number, { dataMb: 5 * 1024 });
    expect(await note(number)).toBe(true);
    expect(await queued()).toHaveLength(2);
  });

  it("is queued when the vigencia ends within 2 days", async () => {
    const number = await anasLine();
    clock = new Date(START.getTime() + 28.5 * DAY);
    expect(await note(number)).toBe(true);
    const composed = await composeMail(deps(), (await queued())[0]!);
    if (composed.kind !== "ready") throw new Error(JSON.stringify(composed));
    expect(composed.mail.text).toContain("termina en 2 días");
  });

  it("is not sent once topped up, nor once the line left the account; waits while the BSS is away", async () => {
    const number = await anasLine();
    await bss.recordUsage(number, { dataMb: 5 * 1024 - 100 });
    await note(number);
    const [mail] = await queued();

    const away = deps({
      bss: {
        findLine: () => Promise.reject(new BssUnavailable("down", { reason: "unreachable" })),
      },
    });
    expect(await composeMail(away, mail!)).toMatchObject({ kind: "retry" });

    await bss.applyTopup({ topupId: "t1", number, amount: 150, offerId: "conecta-150" });
    expect(await composeMail(deps(), mail!)).toMatchObject({ kind: "obsolete" });

    await linkLine(db, { number, accountSub: "beto", source: "added", now: clock }, { move: true });
    expect(await composeMail(deps(), mail!)).toMatchObject({
      kind: "obsolete",
      reason: "line not in the account",
    });
  });

  it("is not queued for a line without a package, nor without an address", async () => {
    const number = "5512345678";
    expect(await note(number)).toBe(false);
    const line = await bss.findLine(await anasLine());
    clock = new Date(START.getTime() + 29.5 * DAY);
    expect(
      await noteRunningOut(db, { accountSub: "ana", email: "", line: line!, now: clock }),
    ).toBe(false);
    expect(await queued()).toHaveLength(0);
  });
});
