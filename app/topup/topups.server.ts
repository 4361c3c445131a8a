import { randomBytes } from "node:crypto";
import { nextFolio } from "~/db/folio-counter.server";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import type { TopupStatus, TopupsTable } from "~/db/schema";
import { formatTotal } from "~/catalog/money";
import { getFixedT } from "~/i18n/i18n.server";
import type { Payable } from "~/payments/pay-for.server";
import type { PaymentPurpose } from "~/payments/payments.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { topupOffer } from "~/line/line";
import { queueLineJob, topupJobId } from "~/line/line-jobs.server";
import { receiptPath } from "./paths";
import { maskPhoneNumber } from "./phone";

export const TOPUP_SERIES = "REC";
export const TOPUP_PAYMENT_PURPOSE = "topup";

export interface Topup {
  /** Unguessable: the receipt's address. */
  id: string;
  folio: string;
  /** The customer signed in when topping up; null without an account. */
  customerSub: string | null;
  /** Where the receipt goes (the account's address when signed in), if any. */
  email: string | null;
  phoneNumber: string;
  amount: number;
  status: TopupStatus;
  createdAt: string;
  paidAt: string | null;
}

function toTopup(row: TopupsTable): Topup {
  return {
    id: row.id,
    folio: row.folio,
    customerSub: row.customer_sub,
    email: row.email,
    phoneNumber: row.phone_number,
    amount: Number(row.amount),
    status: row.status,
    createdAt: row.created_at,
    paidAt: row.paid_at,
  };
}

export interface CreateTopupInput {
  customerSub: string | null;
  email: string | null;
  idempotencyKey: string;
  phoneNumber: string;
  amount: number;
}

export type CreateTopupResult =
  | { kind: "created" | "existing"; topup: Topup }
  /** The key belongs to another customer's top-up: nothing is revealed or changed. */
  | { kind: "conflict" };

async function findByKey(db: Db, key: string) {
  return db.selectFrom("topups").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
}

/** Whether a form with this idempotency key already created its top-up (sending it again is free). */
export async function topupKeyUsed(db: Db, key: string): Promise<boolean> {
  return (await findByKey(db, key)) !== undefined;
}

/** The top-up with this unguessable id, whoever made it: its receipt's address is the key. */
export async function findTopup(db: Db, id: string): Promise<Topup | null> {
  const row = await db.selectFrom("topups").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toTopup(row) : null;
}

function answerFor(row: TopupsTable, customerSub: string | null, kind: "created" | "existing") {
  return row.customer_sub === customerSub
    ? { kind, topup: toTopup(row) }
    : ({ kind: "conflict" } as const);
}

/**
 * Creates the top-up once per idempotency key: a double click, a resubmitted form or a retried
 * request returns the top-up the first submission created, whatever it sends.
 */
export async function createTopup(db: Db, input: CreateTopupInput): Promise<CreateTopupResult> {
  const existing = await findByKey(db, input.idempotencyKey);
  if (existing) return answerFor(existing, input.customerSub, "existing");
  try {
    return await db.transaction().execute(async (trx) => {
      const again = await findByKey(trx, input.idempotencyKey);
      if (again) return answerFor(again, input.customerSub, "existing");
      const now = nowIso();
      const row: TopupsTable = {
        id: randomBytes(16).toString("base64url"),
        folio: await nextFolio(trx, TOPUP_SERIES),
        idempotency_key: input.idempotencyKey,
        customer_sub: input.customerSub,
        email: input.email,
        phone_number: input.phoneNumber,
        amount: input.amount,
        status: "pending_payment",
        created_at: now,
        updated_at: now,
        paid_at: null,
      };
      await trx.insertInto("topups").values(row).execute();
      return { kind: "created" as const, topup: toTopup(row) };
    });
  } catch (error) {
    // A concurrent submission with the same key won the race (PostgreSQL): use its top-up.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findByKey(db, input.idempotencyKey);
    if (!winner) throw error;
    return answerFor(winner, input.customerSub, "existing");
  }
}

/** The customer's top-up with this folio; null for an unknown folio and for anyone else's. */
export async function findCustomerTopup(
  db: Db,
  customerSub: string,
  folio: string,
): Promise<Topup | null> {
  const row = await db
    .selectFrom("topups")
    .selectAll()
    .where("customer_sub", "=", customerSub)
    .where("folio", "=", folio)
    .executeTakeFirst();
  return row ? toTopup(row) : null;
}

/** The customer's top-ups, newest first. */
export async function listCustomerTopups(
  db: Db,
  customerSub: string,
  limit = 10,
): Promise<Topup[]> {
  const rows = await db
    .selectFrom("topups")
    .selectAll()
    .where("customer_sub", "=", customerSub)
    .orderBy("created_at", "desc")
    .orderBy("folio", "desc")
    .limit(limit)
    .execute();
  return rows.map(toTopup);
}

/**
 * The paid top-ups of a line, the last paid first: what the line's page lists for the account the
 * line is in (`holder`, since `since`): its own, and whoever's paid since the line joined it.
 */
export async function paidTopupsOfLine(
  db: Db,
  phoneNumber: string,
  holder: { accountSub: string; since: string },
  limit = 5,
): Promise<Topup[]> {
  const rows = await db
    .selectFrom("topups")
    .selectAll()
    .where("phone_number", "=", phoneNumber)
    .where("status", "=", "paid")
    // Its history before it joined this account stays with whoever made it (another account that
    // held the line): only the account's own top-ups, and anyone's paid since it joined.
    .where((eb) =>
      eb.or([
        eb("customer_sub", "=", holder.accountSub),
        eb(eb.fn.coalesce("paid_at", "created_at"), ">=", holder.since),
      ]),
    )
    .orderBy("paid_at", "desc")
    .orderBy("folio", "desc")
    .limit(limit)
    .execute();
  return rows.map(toTopup);
}

/**
 * Lines this customer has topped up successfully, most recently used first: the one-tap choices
 * of the form. A number typed wrongly and never paid does not become a choice.
 */
export async function savedLines(db: Db, customerSub: string, limit = 5): Promise<string[]> {
  const rows = await db
    .selectFrom("topups")
    .select([
      "phone_number",
      (eb) => eb.fn.max("created_at").as("last_used"),
      // Folios rise with time: they order top-ups made within the same millisecond.
      (eb) => eb.fn.max("folio").as("last_folio"),
    ])
    .where("customer_sub", "=", customerSub)
    .where("status", "=", "paid")
    .groupBy("phone_number")
    .orderBy("last_used", "desc")
    .orderBy("last_folio", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => row.phone_number);
}

/** Marks a pending top-up paid; false when it was already paid (the transition happens once). */
export async function markTopupPaid(db: Db, id: string, paidAt: string): Promise<boolean> {
  const result = await db
    .updateTable("topups")
    .set({ status: "paid", paid_at: paidAt, updated_at: paidAt })
    .where("id", "=", id)
    .where("status", "=", "pending_payment")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels a top-up still waiting for payment (its voucher expired); false otherwise. */
export async function cancelTopup(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable("topups")
    .set({ status: "cancelled", updated_at: at })
    .where("id", "=", id)
    .where("status", "=", "pending_payment")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The package a top-up buys at the BSS; an amount no longer on sale is refused there, for the operator. */
function topupOfferId(amount: number): string {
  return topupOffer(amount)?.offerId ?? `recarga-${amount}`;
}

/**
 * An approved payment of a top-up marks it paid and queues its application to the line (the
 * line-jobs worker applies it at the BSS, once); a voucher or transfer that expired unpaid
 * cancels it. Each in the transaction that settles the payment: a top-up is applied exactly when
 * it is paid, and a cancelled or unpaid one never is.
 */
export const topupPaymentPurpose: PaymentPurpose = {
  async onApproved(trx, payment) {
    const paidAt = nowIso();
    if (!(await markTopupPaid(trx, payment.reference, paidAt))) return;
    const topup = await findTopup(trx, payment.reference);
    if (!topup) return;
    await queueLineJob(trx, {
      id: topupJobId(topup.id),
      kind: "apply-topup",
      payload: {
        topupId: topup.id,
        number: topup.phoneNumber,
        amount: topup.amount,
        offerId: topupOfferId(topup.amount),
      },
      now: new Date(paidAt),
    });
    if (!topup.email) return;
    await enqueueMail(trx, {
      dedupeKey: `topup-receipt:${topup.id}`,
      to: topup.email,
      template: "topup_receipt",
      data: { topupId: topup.id },
    });
  },
  async onInstructions(trx, payment) {
    const topup = await findTopup(trx, payment.reference);
    if (!topup?.email) return;
    await enqueueMail(trx, {
      dedupeKey: `payment-voucher:${payment.id}`,
      to: topup.email,
      template: "payment_voucher",
      data: { purpose: "topup", reference: topup.id, paymentId: payment.id },
    });
  },
  async onExpired(trx, payment) {
    await cancelTopup(trx, payment.reference, nowIso());
  },
};

/** A top-up as the customer pays for it (`payFor`): by its receipt, while it waits for payment. */
export function topupPayment(topup: Topup): Payable {
  return {
    purpose: TOPUP_PAYMENT_PURPOSE,
    reference: topup.id,
    amount: topup.amount,
    description: getFixedT("topup")("receipt.paymentDescription", {
      folio: topup.folio,
      amount: formatTotal(topup.amount),
      masked: maskPhoneNumber(topup.phoneNumber),
    }),
    path: receiptPath(topup.id),
    customerEmail: topup.email,
    awaitingPayment: topup.status === "pending_payment",
  };
}
