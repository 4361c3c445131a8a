import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { luhnCheckDigit } from "~/lib/luhn";
import { createLineJobs } from "~/line/line-jobs.server";
import { linkLine } from "~/line/lines.server";
import { createBssSimulator, type BssSimulator } from "~/line/simulator.server";
import { createPaymentService, type PaymentService } from "~/payments/payments.server";
import type { PaymentProvider } from "~/payments/provider";
import { TEST_CARDS } from "~/payments/sandbox/card-rules";
import { createSandboxGateway, type SandboxGateway } from "~/payments/sandbox/sandbox.server";
import { deriveNotificationKey } from "~/payments/sandbox/signature.server";
import {
  ensurePaymentCustomer,
  removeSavedCard,
  type SavedCard,
} from "~/payments/saved-cards.server";
import {
  createTopup,
  findTopup,
  TOPUP_PAYMENT_PURPOSE,
  topupPayment,
  topupPaymentPurpose,
} from "~/topup/topups.server";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { composeMail } from "~/mail/compose.server";
import { collectingLogger } from "../../tests/support/mail-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { findAutoTopup, saveAutoTopup } from "./auto-topups.server";
import { autoTopupStats, createAutoTopupScheduler } from "./scheduler.server";

// The automatic top-ups' scheduler on both engines (decisions 0120, 0121): one charge per line
// and period however many schedulers run, the monthly cap, two declines and it stops, the bank's
// 3-D Secure answered with a link, and a charge asked for again after a lost answer charged once.

const FIVE_GB = 5 * 1024;
const HOUR = 60 * 60 * 1000;
const key = deriveNotificationKey("auto-topup-test-secret-that-is-long-enough-0123");

let db: Db;
let now: Date;
let bss: BssSimulator;
let sandbox: SandboxGateway;
let payments: PaymentService;
let serial = 0;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  now = new Date("2026-11-10T18:00:00.000Z");
  bss = createBssSimulator({ db, now: () => now });
  const fakeFetch = (async (_url: string, init: RequestInit) => {
    const result = await payments.handleNotification(String(init.body), new Headers(init.headers));
    return new Response(null, { status: result === "invalid" ? 401 : 200 });
  }) as unknown as typeof fetch;
  const { logger } = collectingLogger();
  sandbox = createSandboxGateway({ db, notificationKeys: [key], logger, fetch: fakeFetch });
  payments = paymentsOn(sandbox);
});
afterEach(async () => {
  await db.destroy();
});

function paymentsOn(provider: PaymentProvider): PaymentService {
  const service = createPaymentService({ db, provider, logger: collectingLogger().logger });
  service.registerPurpose(TOPUP_PAYMENT_PURPOSE, topupPaymentPurpose);
  return service;
}

function iccid(n: number): string {
  const body = `89529911${String(n).padStart(10, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** A Conecta 150 line (5 GB, 30 days) of the account, activated now. */
async function lineOf(accountSub: string): Promise<string> {
  serial += 1;
  const { number } = await bss.activateLine({
    externalId: `auto-${serial}`,
    iccid: iccid(serial),
    offerId: "conecta-150",
  });
  await linkLine(db, { number, accountSub, source: "esim", now });
  return number;
}

/** The card saved as a customer saves it: a top-up paid on the sandbox's page, "guardar" ticked. */
async function savedCard(accountSub: string, digits: string = TEST_CARDS.approved) {
  const customerRef = await ensurePaymentCustomer(db, sandbox, {
    sub: accountSub,
    email: `${accountSub}@example.mx`,
  });
  const created = await createTopup(db, {
    customerSub: accountSub,
    email: null,
    idempotencyKey: `save-${accountSub}-${digits}-${(serial += 1)}`,
    phoneNumber: "5500000001",
    amount: 50,
  });
  if (created.kind === "conflict") throw new Error("conflict");
  const payable = topupPayment(created.topup);
  const begun = await payments.begin({
    purpose: payable.purpose,
    reference: payable.reference,
    amount: payable.amount,
    method: "card",
    description: payable.description,
    returnUrl: "http://tienda.test/recarga/x",
    origin: "http://tienda.test",
    customerEmail: null,
    saveCardFor: customerRef,
  });
  if (begun.kind !== "redirect") throw new Error("expected the sandbox's page");
  await sandbox.pay(begun.url.split("/").pop()!, digits, { month: 12, year: 2030 });
  const card = await db
    .selectFrom("saved_cards")
    .selectAll()
    .where("account_sub", "=", accountSub)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  return { id: card.id } as Pick<SavedCard, "id">;
}

async function autoTopupOf(
  accountSub: string,
  number: string,
  card: Pick<SavedCard, "id">,
  settings: Partial<{
    trigger: "expiry" | "low_data";
    thresholdMb: number;
    monthlyMax: number;
  }> = {},
) {
  return saveAutoTopup(db, {
    accountSub,
    number,
    amount: 150,
    trigger: settings.trigger ?? "low_data",
    thresholdMb: settings.trigger === "expiry" ? null : (settings.thresholdMb ?? 1024),
    monthlyMax: settings.monthlyMax ?? 2,
    savedCardId: card.id,
    email: `${accountSub}@example.mx`,
    now,
  });
}

function scheduler(
  options: { retryMinutes?: number; provider?: PaymentProvider; leaseMs?: number } = {},
) {
  return createAutoTopupScheduler({
    db,
    bss,
    payments: options.provider ? paymentsOn(options.provider) : payments,
    logger: collectingLogger().logger,
    retryMinutes: options.retryMinutes ?? 60,
    now: () => now,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });
}

/** A round a minute after the last (a real clock always moves between rounds). */
function round(options: Parameters<typeof scheduler>[0] = {}) {
  now = new Date(now.getTime() + 60_000);
  return scheduler(options).runRound();
}

/**
 * The line's top-ups applied at the BSS, as the line-jobs worker does: its queue runs on the real
 * clock (a paid top-up's job is queued at the payment's real time), the simulator on the test's.
 */
async function applyTopups() {
  await createLineJobs({ db, bss, logger: collectingLogger().logger }).runDue();
}

const runsLow = (number: string) => bss.recordUsage(number, { dataMb: FIVE_GB - 600 });

const charges = (number: string) =>
  db
    .selectFrom("auto_topup_charges")
    .selectAll()
    .where("number", "=", number)
    .orderBy("created_at")
    .execute();

/** The approved payments of the line's automatic top-ups (the provider's side too). */
async function approvedAutomatic(number: string) {
  const topups = (await charges(number)).map((charge) => charge.topup_id).filter(Boolean);
  if (topups.length === 0) return { payments: 0, providerCharges: 0 };
  const approved = await db
    .selectFrom("payments")
    .select("id")
    .where("reference", "in", topups as string[])
    .where("status", "=", "approved")
    .execute();
  const providerCharges = await db
    .selectFrom("sandbox_checkouts")
    .select("id")
    .where("idempotency_key", "like", `auto-topup:${number}:%`)
    .where("status", "=", "approved")
    .execute();
  return { payments: approved.length, providerCharges: providerCharges.length };
}

const mailsTo = async (to: string) =>
  (
    await db
      .selectFrom("mail_queue")
      .select(["template", "data"])
      .where("to_address", "=", to)
      .orderBy("created_at")
      .orderBy("id")
      .execute()
  ).map((mail) => mail.template);

// Each test saves a card, activates lines and runs rounds of the scheduler: a few seconds on
// PostgreSQL, more on a loaded machine (hence the describes' 30 s).
describe("an automatic top-up below the data asked for", { timeout: 30_000 }, () => {
  it("charges the saved card once, pays one top-up for the line, and e-mails before and after", async () => {
    const card = await savedCard("ana");
    const number = await lineOf("ana");
    await autoTopupOf("ana", number, card);
    await runsLow(number);

    const report = await round();

    expect(report).toMatchObject({ checked: 1, noticed: 1, paid: 1, declined: 0 });
    const [charge] = await charges(number);
    expect(charge).toMatchObject({ state: "paid", attempts: 1, amount: 150 });
    const topup = await findTopup(db, charge!.topup_id!);
    expect(topup).toMatchObject({ status: "paid", phoneNumber: number, amount: 150 });
    expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
    // Off-session, with the saved card's key at the provider: one per line, period and attempt.
    const providerCharge = await db
      .selectFrom("sandbox_checkouts")
      .selectAll()
      .where("idempotency_key", "like", `auto-topup:${number}:%`)
      .executeTakeFirstOrThrow();
    expect(providerCharge.off_session).toBe(1);
    expect(providerCharge.idempotency_key).toBe(`auto-topup:${number}:${charge!.period}:1`);
    expect(await mailsTo("ana@example.mx")).toEqual(["auto_topup_notice", "topup_receipt"]);
    // Both e-mails can be written from what the database holds, and say what happened.
    const queued = await db
      .selectFrom("mail_queue")
      .select(["template", "data"])
      .where("to_address", "=", "ana@example.mx")
      .orderBy("created_at")
      .execute();
    const [notice, receipt] = await Promise.all(
      queued.map((row) =>
        composeMail(
          {
            db,
            origin: "https://tienda.test",
            esim: createSandboxProvisioner({ secret: "auto-topup-test-secret-0123456789-abcdef" }),
            logger: collectingLogger().logger,
          },
          row,
        ),
      ),
    );
    expect(notice).toMatchObject({ kind: "ready" });
    expect(notice!.kind === "ready" && notice!.mail.subject).toContain("le quedan pocos datos");
    expect(notice!.kind === "ready" && notice!.mail.text).toContain("Visa terminada en 4242");
    expect(receipt!.kind === "ready" && receipt!.mail.text).toContain("Es tu recarga automática");

    // Applied at the BSS: a new package, a new period, and plenty of data: nothing more.
    await applyTopups();
    const line = await bss.findLine(number);
    expect(line!.balances.dataMb!.remaining).toBeGreaterThan(1024);
    expect(await round()).toMatchObject({ noticed: 0, paid: 0 });
    expect(await charges(number)).toHaveLength(1);
  });

  it("waits while the paid top-up is not yet on the line: the same period is never charged twice", async () => {
    const card = await savedCard("bea");
    const number = await lineOf("bea");
    await autoTopupOf("bea", number, card);
    await runsLow(number);
    await round();
    // The BSS has not applied it: the line still reads low, in the same period.
    await round();
    now = new Date(now.getTime() + 2 * 24 * HOUR);
    await round();
    expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
  });
});

describe("two schedulers at once", { timeout: 30_000 }, () => {
  it("charge each line once for its period", async () => {
    const card = await savedCard("carla");
    const numbers = await Promise.all([1, 2, 3, 4].map(() => lineOf("carla")));
    for (const number of numbers) {
      await autoTopupOf("carla", number, card);
      await runsLow(number);
    }

    now = new Date(now.getTime() + 60_000);
    const [first, second] = await Promise.all([scheduler().runRound(), scheduler().runRound()]);

    expect(first.checked + second.checked).toBe(numbers.length);
    expect(first.paid + second.paid).toBe(numbers.length);
    for (const number of numbers) {
      expect(await charges(number)).toHaveLength(1);
      expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
    }
    // Both again, and a third: the periods are paid, nothing more is charged.
    now = new Date(now.getTime() + 60_000);
    await Promise.all([scheduler().runRound(), scheduler().runRound(), scheduler().runRound()]);
    for (const number of numbers) {
      expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
    }
  });

  it("even when both hold a line (a lease that ran out mid-charge), its period is charged once", async () => {
    const card = await savedCard("cris");
    const numbers = await Promise.all([1, 2].map(() => lineOf("cris")));
    for (const number of numbers) {
      await autoTopupOf("cris", number, card);
      await runsLow(number);
    }
    // Leases already over when taken: nothing keeps the schedulers apart but the database's one
    // charge per line and period, the top-up's and the payment's keys, and the provider's.
    now = new Date(now.getTime() + 60_000);
    const expired = { leaseMs: -1_000 };
    await Promise.all([
      scheduler(expired).runRound(),
      scheduler(expired).runRound(),
      scheduler(expired).runRound(),
    ]);
    for (const number of numbers) {
      expect(await charges(number)).toHaveLength(1);
      expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
      const [charge] = await charges(number);
      expect(charge).toMatchObject({ state: "paid" });
    }
  });

  it("a line held by one scheduler (its lease) is left alone by the other", async () => {
    const card = await savedCard("dora");
    const number = await lineOf("dora");
    const autoTopup = await autoTopupOf("dora", number, card);
    await runsLow(number);
    await db
      .updateTable("auto_topups")
      .set({ lease_owner: "another", lease_until: new Date(now.getTime() + 60_000).toISOString() })
      .where("id", "=", autoTopup.id)
      .execute();
    expect(await round()).toMatchObject({ checked: 0, paid: 0 });
    // The other process died: once its lease runs out, this one takes the line.
    now = new Date(now.getTime() + 2 * 60_000);
    expect(await round()).toMatchObject({ checked: 1, paid: 1 });
  });

  it("a charge asked for again after its answer was lost is the same charge at the provider", async () => {
    const card = await savedCard("elsa");
    const number = await lineOf("elsa");
    await autoTopupOf("elsa", number, card);
    await runsLow(number);
    // The provider charges, and the answer never comes back (a timeout, a restart).
    const lossy: PaymentProvider = {
      ...sandbox,
      async chargeSavedCard(input) {
        await sandbox.chargeSavedCard(input);
        throw new Error("socket hang up");
      },
    };
    expect(await round({ provider: lossy })).toMatchObject({
      paid: 0,
      unavailable: true,
    });
    expect((await charges(number))[0]).toMatchObject({ state: "scheduled", attempts: 0 });

    expect(await round()).toMatchObject({ paid: 1 });
    expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
    expect(
      await db.selectFrom("payments").selectAll().where("saved_card_id", "=", card.id).execute(),
    ).toHaveLength(1);
  });
});

describe("the monthly cap", { timeout: 30_000 }, () => {
  it("skips a period past the cap, with one e-mail for the month", async () => {
    const card = await savedCard("fer");
    const number = await lineOf("fer");
    await autoTopupOf("fer", number, card, { monthlyMax: 1 });
    await runsLow(number);
    await round();
    await applyTopups();
    // The next package runs low within the same month.
    await bss.recordUsage(number, {
      dataMb: (await bss.findLine(number))!.balances.dataMb!.remaining - 500,
    });

    const report = await round();

    expect(report).toMatchObject({ paid: 0, skipped: 1 });
    const [, second] = await charges(number);
    expect(second).toMatchObject({ state: "skipped", last_result: "cap", topup_id: null });
    expect(await approvedAutomatic(number)).toEqual({ payments: 1, providerCharges: 1 });
    expect(
      (await mailsTo("fer@example.mx")).filter((mail) => mail === "auto_topup_cap"),
    ).toHaveLength(1);
    await round();
    expect(
      (await mailsTo("fer@example.mx")).filter((mail) => mail === "auto_topup_cap"),
    ).toHaveLength(1);
  });
});

describe("a card that is declined", { timeout: 30_000 }, () => {
  it("is tried again after the retry time, then the automatic top-up stops, with its e-mails", async () => {
    const card = await savedCard("gil", TEST_CARDS.declinesLater);
    const number = await lineOf("gil");
    const autoTopup = await autoTopupOf("gil", number, card);
    await runsLow(number);
    const run = () => round({ retryMinutes: 60 });

    expect(await run()).toMatchObject({ declined: 1, stopped: 0 });
    expect((await charges(number))[0]).toMatchObject({ state: "retrying", attempts: 1 });
    expect(await run()).toMatchObject({ declined: 0 });
    now = new Date(now.getTime() + 61 * 60_000);
    expect(await run()).toMatchObject({ declined: 1, stopped: 1 });

    const [charge] = await charges(number);
    expect(charge).toMatchObject({ state: "failed", attempts: 2, last_result: "card_declined" });
    expect(await findAutoTopup(db, "gil", number)).toMatchObject({
      id: autoTopup.id,
      state: "stopped",
      stopReason: "failures",
      failures: 2,
    });
    const mails = await db
      .selectFrom("mail_queue")
      .select(["template", "data"])
      .where("to_address", "=", "gil@example.mx")
      .where("template", "=", "auto_topup_declined")
      .orderBy("created_at")
      .execute();
    expect(mails.map((mail) => JSON.parse(mail.data))).toEqual([
      { chargeId: charge!.id, attempt: 1, stopped: false },
      { chargeId: charge!.id, attempt: 2, stopped: true },
    ]);
    // Stopped: never tried again, and nothing was ever approved.
    now = new Date(now.getTime() + 5 * 24 * HOUR);
    expect(await run()).toMatchObject({ checked: 0 });
    expect(await approvedAutomatic(number)).toEqual({ payments: 0, providerCharges: 0 });
    expect((await autoTopupStats(db, now)).stopped).toBe(1);
  });
});

describe("a card the bank wants authenticated (3-D Secure)", { timeout: 30_000 }, () => {
  it("sends the customer a link to pay instead of failing, and counts no failure", async () => {
    const card = await savedCard("hugo", TEST_CARDS.authenticationRequired);
    const number = await lineOf("hugo");
    await autoTopupOf("hugo", number, card);
    await runsLow(number);

    expect(await round()).toMatchObject({ awaitingCustomer: 1, declined: 0 });

    const [charge] = await charges(number);
    expect(charge).toMatchObject({
      state: "awaiting_customer",
      last_result: "authentication_required",
    });
    expect(await findTopup(db, charge!.topup_id!)).toMatchObject({ status: "pending_payment" });
    expect(await mailsTo("hugo@example.mx")).toEqual([
      "auto_topup_notice",
      "auto_topup_action_required",
    ]);
    expect(await findAutoTopup(db, "hugo", number)).toMatchObject({ state: "active", failures: 0 });
    // Waiting for the customer: no new charge, even on another day.
    now = new Date(now.getTime() + 24 * HOUR);
    await round();
    expect(await charges(number)).toHaveLength(1);
    expect((await autoTopupStats(db, now)).awaitingCustomer).toBe(1);

    // The customer pays it from the link (on the page, where the bank can ask them): the charge
    // is paid, and counts as this month's.
    const topup = (await findTopup(db, charge!.topup_id!))!;
    const page = await payments.begin({
      purpose: TOPUP_PAYMENT_PURPOSE,
      reference: topup.id,
      amount: topup.amount,
      method: "card",
      description: "Recarga",
      returnUrl: "http://tienda.test/x",
      origin: "http://tienda.test",
      customerEmail: null,
    });
    if (page.kind !== "redirect") throw new Error("expected the sandbox's page");
    await sandbox.pay(page.url.split("/").pop()!, TEST_CARDS.authenticationRequired);
    await round();
    expect((await charges(number))[0]).toMatchObject({
      state: "paid",
      last_result: "paid_by_customer",
    });
    expect((await autoTopupStats(db, now)).awaitingCustomer).toBe(0);
  });
});

describe("an automatic top-up at the package's end", { timeout: 30_000 }, () => {
  it("e-mails a day before and charges an hour before the end", async () => {
    const card = await savedCard("ines");
    const number = await lineOf("ines");
    await autoTopupOf("ines", number, card, { trigger: "expiry" });
    const endsAt = Date.parse((await bss.findLine(number))!.package!.endsAt);

    now = new Date(endsAt - 30 * HOUR);
    expect(await round()).toMatchObject({ noticed: 0, paid: 0 });
    now = new Date(endsAt - 20 * HOUR);
    expect(await round()).toMatchObject({ noticed: 1, paid: 0 });
    expect((await charges(number))[0]).toMatchObject({
      state: "scheduled",
      due_at: new Date(endsAt - HOUR).toISOString(),
    });
    now = new Date(endsAt - 50 * 60_000);
    expect(await round()).toMatchObject({ noticed: 0, paid: 1 });
    await applyTopups();
    // The package bought starts when the one in force ends: no day without service.
    const line = await bss.findLine(number);
    expect(Date.parse(line!.package!.endsAt)).toBeGreaterThan(endsAt);
    expect(await mailsTo("ines@example.mx")).toEqual(["auto_topup_notice", "topup_receipt"]);
  });

  it("a line topped up by hand after the notice is not charged for that package", async () => {
    const card = await savedCard("juan");
    const number = await lineOf("juan");
    await autoTopupOf("juan", number, card, { trigger: "expiry" });
    const endsAt = Date.parse((await bss.findLine(number))!.package!.endsAt);
    now = new Date(endsAt - 20 * HOUR);
    await round();
    await bss.applyTopup({ topupId: "by-hand", number, amount: 150, offerId: "conecta-150" });
    now = new Date(endsAt - 30 * 60_000);
    expect(await round()).toMatchObject({ paid: 0, skipped: 1 });
    expect((await charges(number))[0]).toMatchObject({
      state: "skipped",
      last_result: "superseded",
    });
  });
});

describe("what stops or pauses it", { timeout: 30_000 }, () => {
  it("a removed card pauses it; the line moved to another account stops it", async () => {
    const card = await savedCard("karla");
    const number = await lineOf("karla");
    await autoTopupOf("karla", number, card);
    await runsLow(number);
    await removeSavedCard(db, sandbox, { accountSub: "karla", id: card.id });
    expect(await round()).toMatchObject({ checked: 1, paid: 0, noticed: 0 });
    expect(await charges(number)).toHaveLength(0);

    await linkLine(db, { number, accountSub: "otra", source: "added", now }, { move: true });
    expect(await round()).toMatchObject({ stopped: 1 });
    expect(await findAutoTopup(db, "karla", number)).toMatchObject({
      state: "stopped",
      stopReason: "line_moved",
    });
  });
});
