import { randomBytes } from "node:crypto";
import { sql, type Transaction } from "kysely";
import { nextInSeries } from "~/db/folio-counter.server";
import { type Db, isUniqueViolation } from "~/db/db.server";
import type { BssSimPackagesTable, Database } from "~/db/schema";
import { isWellFormedIccid } from "~/esim/provisioning";
import {
  type ActivateLineInput,
  type ApplyTopupInput,
  assertLineNumber,
  assertReference,
  type Bss,
  BssRefused,
  type RecordRegistrationInput,
} from "./bss";
import {
  type Allowance,
  applyPackage,
  assertDayRange,
  type BoughtPackage,
  consumeUsage,
  type DailyUsage,
  fillDays,
  isLineStatus,
  type Line,
  type LineAllowances,
  type LineStatus,
  lineState,
  type PackageOffer,
  planOffer,
  takesTopups,
  topupOffer,
  type UsageAmounts,
  validateUsage,
} from "./line";

/**
 * The embedded BSS: lines, packages, balances and usage kept in the store's own database (both
 * engines), in tables only this module touches (bss_sim_*, decision 0088). It behaves as the
 * catalogue and the published tariffs say (~/line/line.ts), answers at once and never fails on
 * its own; it is a test double, refused in production unless the operator opts in.
 *
 * - Numbers it assigns are 55 99NN NNNN, from a counter: recognisable as test lines.
 * - A sandbox has every other number too (decision 0090): a valid number it has no record of is
 *   an active line with no package, recorded once something happens to it (a top-up, usage, a
 *   status), so that any number can be topped up in a test environment; the counter skips the
 *   numbers so recorded. Except its test ranges (SIMULATED_TEST_RANGES), for the journeys that
 *   need them: 99 0000 NNNN are numbers it does not know, 99 0001 NNNN suspended lines,
 *   99 0002 NNNN lines dadas de baja, 99 0003 NNNN lines suspended for want of a registration
 *   (decision 0100) until the store records one.
 * - Lines it activates stay "active": the store tells it (recordRegistration with null) when a
 *   line turns out to have no registered holder.
 * - Any ICCID that passes the Luhn check activates a line (a sandbox has no SIM inventory).
 * - A top-up applies once per top-up id, an activation once per external id: the id is the
 *   primary key of the simulator's record, so of two concurrent calls the first insert wins and
 *   the other answers its result (on PostgreSQL the second insert waits for the first commit).
 * - Saldo (money) is always 0: every amount on sale buys a package.
 */
export interface BssSimulator extends Bss {
  readonly name: "simulator";
  /**
   * Records usage on an active line, as the network would let it through (line.ts
   * consumeUsage), on `day` (YYYY-MM-DD, Mexico City; default today). Answers what was consumed.
   * An InvalidUsage for amounts that cannot have happened; BssRefused for an unknown number or a
   * line that is not active.
   */
  recordUsage(
    number: string,
    usage: Partial<UsageAmounts> & { day?: string },
  ): Promise<UsageAmounts>;
  /** Suspends, terminates or reactivates a simulated line (tests and demos). */
  setLineStatus(number: string, status: LineStatus): Promise<void>;
}

export interface BssSimulatorOptions {
  db: Db;
  /** The clock; tests move it. */
  now?: () => Date;
}

/** Numbers the simulator assigns: 5599000001, 5599000002… */
export const SIMULATED_NUMBER_PREFIX = "5599";

/**
 * Numbers the simulator answers in a set way, for tests and demos (decision 0090): a number of
 * `unknown` is no line, one of `suspended` a suspended line, one of `terminated` a line dada de
 * baja, one of `unregistered` a line suspended for want of a registration (decision 0100) —
 * until activated, registered, or given another status, as any other line.
 */
export const SIMULATED_TEST_RANGES = {
  unknown: "990000",
  suspended: "990001",
  terminated: "990002",
  unregistered: "990003",
} as const;

/**
 * What a number the simulator has no record of is: null for no line (its test range of unknown
 * numbers), else a line of that status with no package.
 */
export function sandboxLineStatus(number: string): LineStatus | null {
  if (number.startsWith(SIMULATED_TEST_RANGES.unknown)) return null;
  if (number.startsWith(SIMULATED_TEST_RANGES.suspended)) return "suspended";
  if (number.startsWith(SIMULATED_TEST_RANGES.terminated)) return "terminated";
  if (number.startsWith(SIMULATED_TEST_RANGES.unregistered)) return "unregistered";
  return "active";
}

/** The SIM of a line the sandbox had before it was seen: no real ICCID (the column is unique). */
const sandboxIccid = (number: string) => `sandbox-${number}`;

const NO_ALLOWANCES: LineAllowances = { packages: [], data: { totalMb: 0, usedMb: 0 } };
const NUMBER_SERIES = "BSS-SIM-LINE";
const LAST_SIMULATED_NUMBER = 999_999;

type Trx = Transaction<Database>;

/** Thrown inside a transaction to roll it back and answer what an earlier call decided. */
class Repeat<T> {
  constructor(readonly result: T) {}
}

function toAllowance(value: number | null): Allowance {
  return value === null ? "unlimited" : value;
}

function fromAllowance(value: Allowance): number | null {
  return value === "unlimited" ? null : value;
}

function toBoughtPackage(row: BssSimPackagesTable): BoughtPackage {
  return {
    offerId: row.offer_id,
    name: row.name,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    minutes: toAllowance(row.minutes_allowance),
    sms: toAllowance(row.sms_allowance),
    unlimitedSocial: Number(row.unlimited_social) === 1,
    minutesUsed: Number(row.minutes_used),
    smsUsed: Number(row.sms_used),
    socialUsedMb: Number(row.social_used_mb),
  };
}

function refused(reason: ConstructorParameters<typeof BssRefused>[1]["reason"], what: string) {
  return new BssRefused(`BSS simulator: ${what}`, { reason });
}

export function createBssSimulator(options: BssSimulatorOptions): BssSimulator {
  const { db } = options;
  const now = options.now ?? (() => new Date());

  async function readLine(
    trx: Db | Trx,
    number: string,
  ): Promise<{ status: LineStatus; allowances: LineAllowances } | null> {
    const line = await trx
      .selectFrom("bss_sim_lines")
      .select(["status", "data_total_mb", "data_used_mb"])
      .where("number", "=", number)
      .executeTakeFirst();
    if (!line) return null;
    const packages = await trx
      .selectFrom("bss_sim_packages")
      .selectAll()
      .where("number", "=", number)
      .orderBy("position")
      .execute();
    return {
      status: isLineStatus(line.status) ? line.status : "terminated",
      allowances: {
        packages: packages.map(toBoughtPackage),
        data: { totalMb: Number(line.data_total_mb), usedMb: Number(line.data_used_mb) },
      },
    };
  }

  /**
   * Takes the line's row for this transaction (an update is a row lock on PostgreSQL; SQLite's
   * transactions take the write lock at BEGIN), so that two top-ups or usages of one line
   * follow each other. Answers its status, or null for an unknown number.
   */
  async function lockLine(trx: Trx, number: string, at: Date): Promise<LineStatus | null> {
    const lock = () =>
      trx
        .updateTable("bss_sim_lines")
        .set({ updated_at: at.toISOString() })
        .where("number", "=", number)
        .returning("status")
        .executeTakeFirst();
    const row = (await lock()) ?? ((await keepSandboxLine(trx, number, at)) ? await lock() : null);
    if (!row) return null;
    return isLineStatus(row.status) ? row.status : "terminated";
  }

  /** Keeps a line the sandbox has but had no record of (sandboxLineStatus); false: no line. */
  async function keepSandboxLine(trx: Trx, number: string, at: Date): Promise<boolean> {
    const status = sandboxLineStatus(number);
    if (status === null) return false;
    await trx
      .insertInto("bss_sim_lines")
      .values({
        number,
        iccid: sandboxIccid(number),
        status,
        data_total_mb: 0,
        data_used_mb: 0,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .onConflict((conflict) => conflict.column("number").doNothing())
      .execute();
    return true;
  }

  async function givePackage(
    trx: Trx,
    number: string,
    offer: PackageOffer,
    appliedBy: string,
    at: Date,
  ): Promise<void> {
    const allowances = (await readLine(trx, number))?.allowances ?? NO_ALLOWANCES;
    const applied = applyPackage(allowances, offer, at);
    await trx
      .insertInto("bss_sim_packages")
      .values({
        number,
        position: allowances.packages.length,
        applied_by: appliedBy,
        offer_id: applied.package.offerId,
        name: applied.package.name,
        starts_at: applied.package.startsAt,
        ends_at: applied.package.endsAt,
        minutes_allowance: fromAllowance(applied.package.minutes),
        sms_allowance: fromAllowance(applied.package.sms),
        unlimited_social: applied.package.unlimitedSocial ? 1 : 0,
        minutes_used: 0,
        sms_used: 0,
        social_used_mb: 0,
      })
      .execute();
    await trx
      .updateTable("bss_sim_lines")
      .set({ data_total_mb: applied.data.totalMb, data_used_mb: applied.data.usedMb })
      .where("number", "=", number)
      .execute();
  }

  /** The next free number of the test range. */
  async function assignNumber(trx: Trx): Promise<string> {
    for (;;) {
      const sequence = await nextInSeries(trx, NUMBER_SERIES);
      if (sequence > LAST_SIMULATED_NUMBER) {
        throw new Error("The BSS simulator has no test numbers left");
      }
      const number = `${SIMULATED_NUMBER_PREFIX}${String(sequence).padStart(6, "0")}`;
      const taken = await trx
        .selectFrom("bss_sim_lines")
        .select("number")
        .where("number", "=", number)
        .executeTakeFirst();
      if (!taken) return number;
    }
  }

  async function findLine(number: string): Promise<Line | null> {
    assertLineNumber(number);
    const line = await readLine(db, number);
    const status = line?.status ?? sandboxLineStatus(number);
    if (status === null) return null;
    const state = lineState(line?.allowances ?? NO_ALLOWANCES, 0, now());
    return { number, status, package: state.package, balances: state.balances };
  }

  async function usageByDay(number: string, from: string, to: string): Promise<DailyUsage[]> {
    assertLineNumber(number);
    assertDayRange(from, to);
    const line = await db
      .selectFrom("bss_sim_lines")
      .select("number")
      .where("number", "=", number)
      .executeTakeFirst();
    if (!line && sandboxLineStatus(number) === null)
      throw refused("unknown-number", "no such line");
    const rows = await db
      .selectFrom("bss_sim_usage")
      .select(["day", "data_mb", "minutes", "sms"])
      .where("number", "=", number)
      .where("day", ">=", from)
      .where("day", "<=", to)
      .execute();
    return fillDays(
      from,
      to,
      rows.map((row) => ({
        day: row.day,
        dataMb: Number(row.data_mb),
        minutes: Number(row.minutes),
        sms: Number(row.sms),
      })),
    );
  }

  async function applyTopup(input: ApplyTopupInput): Promise<{ reference: string }> {
    assertReference(input.topupId, "topupId");
    assertLineNumber(input.number);
    const offer = topupOffer(input.amount);
    if (!offer || offer.offerId !== input.offerId) {
      throw refused("unknown-offer", `no offer ${input.offerId} for ${input.amount} pesos`);
    }
    const at = now();
    try {
      return await db.transaction().execute(async (trx) => {
        const reference = `SIM-${randomBytes(8).toString("hex").toUpperCase()}`;
        const inserted = await trx
          .insertInto("bss_sim_topups")
          .values({
            topup_id: input.topupId,
            number: input.number,
            amount: input.amount,
            offer_id: input.offerId,
            reference,
            applied_at: at.toISOString(),
          })
          .onConflict((conflict) => conflict.column("topup_id").doNothing())
          .returning("topup_id")
          .executeTakeFirst();
        if (!inserted) {
          const first = await trx
            .selectFrom("bss_sim_topups")
            .selectAll()
            .where("topup_id", "=", input.topupId)
            .executeTakeFirstOrThrow();
          if (
            first.number !== input.number ||
            Number(first.amount) !== input.amount ||
            first.offer_id !== input.offerId
          ) {
            throw refused("reference-reused", "this top-up id was applied with other details");
          }
          throw new Repeat({ reference: first.reference });
        }
        const status = await lockLine(trx, input.number, at);
        if (status === null) throw refused("unknown-number", "no such line");
        // An unregistered line keeps the package it was paid for, for when it is registered.
        if (!takesTopups(status)) throw refused("line-not-active", `the line is ${status}`);
        await givePackage(trx, input.number, offer, `topup:${input.topupId}`, at);
        return { reference };
      });
    } catch (error) {
      if (error instanceof Repeat) return error.result as { reference: string };
      throw error;
    }
  }

  async function activateLine(input: ActivateLineInput): Promise<{ number: string }> {
    assertReference(input.externalId, "externalId");
    if (input.number !== undefined) assertLineNumber(input.number);
    if (typeof input.iccid !== "string" || !isWellFormedIccid(input.iccid)) {
      throw refused("invalid-iccid", "not a valid ICCID");
    }
    const offer = planOffer(input.offerId);
    if (!offer) throw refused("unknown-offer", `no plan ${input.offerId}`);
    const at = now();
    try {
      return await db.transaction().execute(async (trx) => {
        const number = input.number ?? (await assignNumber(trx));
        const inserted = await trx
          .insertInto("bss_sim_activations")
          .values({
            external_id: input.externalId,
            number,
            iccid: input.iccid,
            offer_id: input.offerId,
            requested_number: input.number ?? null,
            created_at: at.toISOString(),
          })
          .onConflict((conflict) => conflict.column("external_id").doNothing())
          .returning("external_id")
          .executeTakeFirst();
        if (!inserted) {
          const first = await trx
            .selectFrom("bss_sim_activations")
            .selectAll()
            .where("external_id", "=", input.externalId)
            .executeTakeFirstOrThrow();
          if (
            first.iccid !== input.iccid ||
            first.offer_id !== input.offerId ||
            first.requested_number !== (input.number ?? null)
          ) {
            throw refused("reference-reused", "this activation id came with other details");
          }
          // Rolls back the number taken for nothing.
          throw new Repeat({ number: first.number });
        }
        await refuseTaken(trx, input.iccid, number);
        await trx
          .insertInto("bss_sim_lines")
          .values({
            number,
            iccid: input.iccid,
            status: "active",
            data_total_mb: 0,
            data_used_mb: 0,
            created_at: at.toISOString(),
            updated_at: at.toISOString(),
          })
          .execute();
        await givePackage(trx, number, offer, `activation:${input.externalId}`, at);
        return { number };
      });
    } catch (error) {
      if (error instanceof Repeat) return error.result as { number: string };
      // Two activations of one SIM or one number at the same time: the loser sees the winner.
      if (isUniqueViolation(error)) {
        await refuseTaken(db, input.iccid, input.number ?? null);
      }
      throw error;
    }
  }

  async function refuseTaken(trx: Db | Trx, iccid: string, number: string | null) {
    const bySim = await trx
      .selectFrom("bss_sim_lines")
      .select("number")
      .where("iccid", "=", iccid)
      .executeTakeFirst();
    if (bySim) throw refused("iccid-in-use", "this SIM already serves a line");
    if (number === null) return;
    const byNumber = await trx
      .selectFrom("bss_sim_lines")
      .select("number")
      .where("number", "=", number)
      .executeTakeFirst();
    if (byNumber) throw refused("number-in-use", "this number already is a line");
  }

  async function recordUsage(
    number: string,
    usage: Partial<UsageAmounts> & { day?: string },
  ): Promise<UsageAmounts> {
    assertLineNumber(number);
    const at = now();
    // Refused before anything is read: an absurd amount never reaches the database.
    const { day } = validateUsage(usage, at);
    return db.transaction().execute(async (trx) => {
      const status = await lockLine(trx, number, at);
      if (status === null) throw refused("unknown-number", "no such line");
      if (status !== "active") throw refused("line-not-active", `the line is ${status}`);
      const sameDayRow = await trx
        .selectFrom("bss_sim_usage")
        .select(["data_mb", "minutes", "sms", "social_mb"])
        .where("number", "=", number)
        .where("day", "=", day)
        .executeTakeFirst();
      const sameDay = {
        dataMb: Number(sameDayRow?.data_mb ?? 0),
        minutes: Number(sameDayRow?.minutes ?? 0),
        sms: Number(sameDayRow?.sms ?? 0),
        socialDataMb: Number(sameDayRow?.social_mb ?? 0),
      };
      const { amounts } = validateUsage(usage, at, sameDay);
      const line = await readLine(trx, number);
      if (!line) throw refused("unknown-number", "no such line");
      const allowances = line.allowances;
      const result = consumeUsage(allowances, amounts, at);
      const consumed = result.consumed;
      if (result.package) {
        // Positions count 0, 1, 2… in the order read.
        const position = allowances.packages.findIndex(
          (pkg) => pkg.startsAt === result.package?.startsAt,
        );
        await trx
          .updateTable("bss_sim_packages")
          .set({
            minutes_used: result.package.minutesUsed,
            sms_used: result.package.smsUsed,
            social_used_mb: result.package.socialUsedMb,
          })
          .where("number", "=", number)
          .where("position", "=", position)
          .execute();
        await trx
          .updateTable("bss_sim_lines")
          .set({ data_used_mb: result.data.usedMb })
          .where("number", "=", number)
          .execute();
      }
      await trx
        .insertInto("bss_sim_usage")
        .values({
          number,
          day,
          data_mb: consumed.dataMb,
          minutes: consumed.minutes,
          sms: consumed.sms,
          social_mb: consumed.socialDataMb,
        })
        .onConflict((conflict) =>
          conflict.columns(["number", "day"]).doUpdateSet({
            data_mb: sql<number>`bss_sim_usage.data_mb + ${consumed.dataMb}`,
            minutes: sql<number>`bss_sim_usage.minutes + ${consumed.minutes}`,
            sms: sql<number>`bss_sim_usage.sms + ${consumed.sms}`,
            social_mb: sql<number>`bss_sim_usage.social_mb + ${consumed.socialDataMb}`,
          }),
        )
        .execute();
      return consumed;
    });
  }

  async function recordRegistration(input: RecordRegistrationInput): Promise<void> {
    assertLineNumber(input.number);
    if (input.folio !== null) assertReference(input.folio, "folio");
    const at = now();
    await db.transaction().execute(async (trx) => {
      const status = await lockLine(trx, input.number, at);
      if (status === null) throw refused("unknown-number", "no such line");
      // Only these two move: a registration does not bring back a line suspended for another
      // reason, being ported or dada de baja.
      const next =
        input.folio !== null && status === "unregistered"
          ? "active"
          : input.folio === null && status === "active"
            ? "unregistered"
            : null;
      if (next === null) return;
      await trx
        .updateTable("bss_sim_lines")
        .set({ status: next, updated_at: at.toISOString() })
        .where("number", "=", input.number)
        .execute();
    });
  }

  async function setLineStatus(number: string, status: LineStatus): Promise<void> {
    assertLineNumber(number);
    if (!isLineStatus(status)) throw new TypeError(`not a line status: ${String(status)}`);
    const at = now();
    await db.transaction().execute(async (trx) => {
      if ((await lockLine(trx, number, at)) === null) {
        throw refused("unknown-number", "no such line");
      }
      await trx
        .updateTable("bss_sim_lines")
        .set({ status, updated_at: at.toISOString() })
        .where("number", "=", number)
        .execute();
    });
  }

  return {
    name: "simulator",
    findLine,
    usageByDay,
    applyTopup,
    activateLine,
    recordRegistration,
    recordUsage,
    setLineStatus,
  };
}
