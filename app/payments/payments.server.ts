import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import * as z from "zod";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import type { PaymentsTable } from "~/db/schema";
import {
  isPaymentMethod,
  isPaymentProviderUnavailable,
  PaymentProviderUnavailable,
  toCardBrand,
  type CardBrand,
  type DeclineReason,
  type PaymentInstructions,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProvider,
} from "./provider";
import { recordSavedCard, type SavedCard } from "./saved-cards.server";

export type Payment = PaymentsTable;

/**
 * What the store does when a payment of one purpose settles. Each runs inside the transaction
 * that records the payment's new state, so both happen exactly once or not at all.
 */
export interface PaymentPurpose {
  onApproved(trx: Db, payment: Payment): Promise<void>;
  /** A voucher or transfer was not paid in time: what it paid is cancelled. */
  onExpired(trx: Db, payment: Payment): Promise<void>;
  /** A voucher or transfer was issued (once per payment): e.g. e-mail it to the customer. */
  onInstructions?(trx: Db, payment: Payment): Promise<void>;
}

export interface BeginPaymentInput {
  /** "order", "topup", …: a purpose registered with `registerPurpose`. */
  purpose: string;
  /** The id of the thing being paid. */
  reference: string;
  amount: number;
  method: PaymentMethod;
  description: string;
  /** Absolute URL the customer comes back to. */
  returnUrl: string;
  /** This site's public origin, for the notification address. */
  origin: string;
  /** Where the provider may send its own receipt or voucher. */
  customerEmail: string | null;
  /** A card payment whose card is saved to this provider customer (decision 0119); null: not. */
  saveCardFor?: string | null;
}

export interface ChargeSavedCardInput {
  purpose: string;
  reference: string;
  amount: number;
  description: string;
  card: SavedCard;
  /** true: nobody is at the page (an automatic top-up). */
  offSession: boolean;
  /**
   * The provider's idempotency key; default one per payment. An automatic top-up gives one per
   * line, period and attempt (decision 0120).
   */
  idempotencyKey?: string;
}

export type ChargeSavedCardResult =
  | { kind: "approved"; payment: Payment }
  | { kind: "declined"; reason: DeclineReason; payment: Payment }
  /** The provider has not decided yet: its notification settles it. */
  | { kind: "pending"; payment: Payment }
  /** Paid before this charge was asked for (by another way, or an earlier answer). */
  | { kind: "already_paid"; payment: Payment };

export type BeginPaymentResult =
  | { kind: "redirect"; url: string; payment: Payment }
  /** A voucher or transfer to show the customer, on the store's own page. */
  | { kind: "instructions"; payment: Payment }
  | { kind: "already_paid"; payment: Payment };

export type SettleResult = "applied" | "duplicate" | "pending" | "rejected";

export interface PaymentService {
  readonly provider: PaymentProvider;
  registerPurpose(purpose: string, handler: PaymentPurpose): void;
  /**
   * Opens a payment for the thing, or resumes the one in flight: a double submission sends the
   * customer to the same payment page or voucher. After a decline, a new payment is opened; a
   * different method closes the unpaid checkout first. Throws PaymentProviderUnavailable when
   * the provider cannot be reached: the thing being paid is kept, and the customer retries.
   */
  begin(input: BeginPaymentInput): Promise<BeginPaymentResult>;
  latest(purpose: string, reference: string): Promise<Payment | null>;
  /** Verifies and applies a provider notification, once per notification. */
  handleNotification(rawBody: string, headers: Headers): Promise<SettleResult | "invalid">;
  /** Applies an outcome: the status changes once; replays and stale outcomes change nothing. */
  settle(outcome: PaymentOutcome, eventId?: string | null): Promise<SettleResult>;
  /** Asks the provider about a payment still pending here and applies the answer. */
  refresh(payment: Payment): Promise<Payment>;
  /** Asks the provider about every voucher past its date; answers how many were asked about. */
  refreshOverdue(now?: Date): Promise<number>;
  /**
   * Charges a saved card at once, on a new payment of the thing (a payment left pending with
   * another way of paying is closed first), or resumes the charge of the same card left without
   * an answer (a process that died mid-call): the same payment and idempotency key, so the
   * provider charges once. Throws PaymentProviderUnavailable when the provider cannot be reached.
   */
  chargeSavedCard(input: ChargeSavedCardInput): Promise<ChargeSavedCardResult>;
}

const instructionsSchema: z.ZodType<PaymentInstructions> = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("cash"),
    reference: z.string(),
    expiresAt: z.string(),
    hostedUrl: z.string().nullable(),
  }),
  z.object({
    method: z.literal("spei"),
    clabe: z.string(),
    reference: z.string(),
    bank: z.string(),
    beneficiary: z.string(),
    expiresAt: z.string(),
    hostedUrl: z.string().nullable(),
  }),
]);

/** The voucher or transfer details stored with a payment, or null. */
export function paymentInstructions(payment: Pick<Payment, "instructions">) {
  if (!payment.instructions) return null;
  try {
    const parsed = instructionsSchema.safeParse(JSON.parse(payment.instructions));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What identifies a voucher or transfer among all others; it is never handed out twice. */
function instructionReference(instructions: PaymentInstructions): string {
  return instructions.method === "cash"
    ? `cash:${instructions.reference}`
    : `spei:${instructions.clabe}:${instructions.reference}`;
}

function instructionColumns(instructions: PaymentInstructions | null) {
  return instructions
    ? {
        instructions: JSON.stringify(instructions),
        instruction_reference: instructionReference(instructions),
        expires_at: instructions.expiresAt,
      }
    : {};
}

function newPaymentId(): string {
  return `pay_${randomBytes(12).toString("base64url")}`;
}

const HOUR_MS = 60 * 60 * 1000;

export function createPaymentService(options: {
  db: Db;
  provider: PaymentProvider;
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** How long a cash voucher or a transfer may be paid. */
  voucherHours?: number;
  /**
   * Told when a payment reaches a state, once committed: `pending` when begun, then `approved`,
   * `declined`, `expired` or `replaced` (the server's metrics).
   */
  onStateChange?: (method: string, state: Payment["status"]) => void;
}): PaymentService {
  const { db, provider, logger } = options;
  const stateChanged = options.onStateChange ?? (() => undefined);
  const voucherHours = options.voucherHours ?? 72;
  const purposes = new Map<string, PaymentPurpose>();

  async function latest(purpose: string, reference: string) {
    return (
      (await db
        .selectFrom("payments")
        .selectAll()
        .where("purpose", "=", purpose)
        .where("reference", "=", reference)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst()) ?? null
    );
  }

  async function findPayment(id: string) {
    return (
      (await db.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst()) ?? null
    );
  }

  async function openOrResume(
    input: Pick<BeginPaymentInput, "purpose" | "reference" | "amount" | "method">,
    savedCardId: string | null = null,
  ): Promise<Payment> {
    let begun = false;
    try {
      const payment = await db.transaction().execute(async (trx) => {
        const inFlight = await trx
          .selectFrom("payments")
          .selectAll()
          .where("purpose", "=", input.purpose)
          .where("reference", "=", input.reference)
          .where("status", "in", ["pending", "approved"])
          .orderBy("created_at", "desc")
          .executeTakeFirst();
        if (inFlight) return inFlight;
        const now = nowIso();
        const payment: Payment = {
          id: newPaymentId(),
          purpose: input.purpose,
          reference: input.reference,
          amount: input.amount,
          currency: "MXN",
          status: "pending",
          provider: provider.name,
          provider_reference: null,
          checkout_url: null,
          decline_reason: null,
          card_brand: null,
          card_last4: null,
          created_at: now,
          updated_at: now,
          settled_at: null,
          method: input.method,
          instructions: null,
          instruction_reference: null,
          expires_at: null,
          saved_card_id: savedCardId,
        };
        await trx.insertInto("payments").values(payment).execute();
        begun = true;
        return payment;
      });
      if (begun) stateChanged(payment.method, "pending");
      return payment;
    } catch (error) {
      // Another request opened the pending payment first (unique index): resume that one.
      if (!isUniqueViolation(error)) throw error;
      const winner = await latest(input.purpose, input.reference);
      if (!winner) throw error;
      return winner;
    }
  }

  function providerUnavailable(error: unknown, paymentId: string | null) {
    logger.warn({
      msg: "payment provider unavailable",
      provider: provider.name,
      paymentId,
      reason: error instanceof Error ? error.message : "unknown",
    });
  }

  /** Calls the provider; a failure to reach it is the customer's "try again", never a 500. */
  async function reach<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isPaymentProviderUnavailable(error)) throw error;
      providerUnavailable(error, null);
      throw new PaymentProviderUnavailable(error);
    }
  }

  /**
   * The customer chose another method while a payment was pending: its checkout is closed at the
   * provider first, so that it can no longer be paid. Answers whether the thing got paid meanwhile.
   */
  async function replace(payment: Payment): Promise<"replaced" | "paid"> {
    if (payment.provider_reference) {
      const closed = await reach(() => provider.close(payment.provider_reference!));
      if (closed === "paid") {
        const now = await refresh(payment);
        if (now.status === "approved") return "paid";
      }
    }
    const now = nowIso();
    const replaced = await db
      .updateTable("payments")
      .set({ status: "replaced", settled_at: now, updated_at: now })
      .where("id", "=", payment.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(replaced.numUpdatedRows) === 1) stateChanged(payment.method, "replaced");
    logger.info({ msg: "payment replaced by another method", paymentId: payment.id });
    return "replaced";
  }

  async function settle(outcome: PaymentOutcome, eventId?: string | null): Promise<SettleResult> {
    let settledMethod = null as string | null;
    const result = await db.transaction().execute(async (trx): Promise<SettleResult> => {
      if (eventId) {
        const recorded = await trx
          .insertInto("payment_events")
          .values({ provider: provider.name, event_id: eventId, received_at: nowIso() })
          .onConflict((conflict) => conflict.columns(["provider", "event_id"]).doNothing())
          .executeTakeFirst();
        if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) return "duplicate";
      }
      const payment = await trx
        .selectFrom("payments")
        .selectAll()
        .where("id", "=", outcome.paymentId)
        .executeTakeFirst();
      if (
        !payment ||
        Number(payment.amount) !== outcome.amount ||
        payment.currency.toUpperCase() !== outcome.currency.toUpperCase() ||
        (payment.provider_reference !== null &&
          payment.provider_reference !== outcome.providerReference)
      ) {
        logger.warn({
          msg: "payment outcome does not match a payment",
          paymentId: outcome.paymentId,
          status: outcome.status,
        });
        return "rejected";
      }
      const now = nowIso();
      if (outcome.status === "pending") {
        // The customer chose a voucher or transfer at the provider's page: keep its details.
        if (outcome.instructions && !payment.instructions && payment.status === "pending") {
          const learnt = {
            ...instructionColumns(outcome.instructions),
            method: outcome.instructions.method,
            provider_reference: outcome.providerReference,
            updated_at: now,
          };
          const updated = await trx
            .updateTable("payments")
            .set(learnt)
            .where("id", "=", payment.id)
            .where("status", "=", "pending")
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 1) {
            await purposes.get(payment.purpose)?.onInstructions?.(trx, { ...payment, ...learnt });
          }
        }
        return "pending";
      }
      const handler = purposes.get(payment.purpose);
      if (!handler) throw new Error(`No handler for payment purpose ${payment.purpose}`);
      const changed = await trx
        .updateTable("payments")
        .set({
          status: outcome.status,
          provider_reference: outcome.providerReference,
          decline_reason:
            outcome.status === "declined" ? (outcome.declineReason ?? "card_declined") : null,
          card_brand: outcome.card?.brand ?? null,
          card_last4: outcome.card?.last4 ?? null,
          settled_at: now,
          updated_at: now,
        })
        .where("id", "=", payment.id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) {
        if (payment.status !== outcome.status) {
          // A payment already paid, expired or replaced: the late news changes nothing.
          logger.warn({
            msg: "payment notification for a payment no longer pending",
            paymentId: payment.id,
            status: payment.status,
            notified: outcome.status,
          });
        }
        return "duplicate";
      }
      const settled = { ...payment, status: outcome.status, settled_at: now };
      if (outcome.status === "approved" && outcome.savedCard) {
        await recordSavedCard(trx, provider.name, outcome.savedCard);
      }
      if (outcome.status === "approved") await handler.onApproved(trx, settled);
      // A voucher or transfer issued and not paid in time ends what it paid for; a provider's
      // page left unfinished (no voucher issued) only ends this payment: the customer may pay again.
      if (outcome.status === "expired" && payment.instructions) {
        await handler.onExpired(trx, settled);
      }
      logger.info({ msg: "payment settled", paymentId: payment.id, status: outcome.status });
      settledMethod = payment.method;
      return "applied";
    });
    if (settledMethod !== null) stateChanged(settledMethod, outcome.status);
    return result;
  }

  /** Never throws for the provider: a page that asks shows what is known here instead. */
  async function refresh(payment: Payment): Promise<Payment> {
    if (payment.status !== "pending" || !payment.provider_reference) return payment;
    let outcome: PaymentOutcome | null;
    try {
      outcome = await provider.retrieve(payment.provider_reference);
    } catch (error) {
      providerUnavailable(error, payment.id);
      return payment;
    }
    if (outcome && outcome.paymentId === payment.id) await settle(outcome);
    return (await findPayment(payment.id)) ?? payment;
  }

  /**
   * A voucher or transfer past its date that the provider still holds open (a provider whose
   * transfers never lapse on their own): it is closed there, so it can no longer be paid, and
   * expires here. Paid meanwhile, the payment is applied instead.
   */
  async function expireOverdue(payment: Payment): Promise<void> {
    const current = await refresh(payment);
    if (current.status !== "pending" || !current.provider_reference) return;
    const closed = await reach(() => provider.close(current.provider_reference!));
    if (closed === "paid") {
      await refresh(current);
      return;
    }
    await settle({
      paymentId: current.id,
      providerReference: current.provider_reference,
      status: "expired",
      amount: Number(current.amount),
      currency: current.currency,
      declineReason: null,
      card: null,
      instructions: null,
    });
  }

  async function chargeSavedCard(input: ChargeSavedCardInput): Promise<ChargeSavedCardResult> {
    if (!purposes.has(input.purpose)) throw new Error(`Unknown payment purpose ${input.purpose}`);
    const wanted = { ...input, method: "card" as const };
    let payment = await openOrResume(wanted, input.card.id);
    if (payment.status === "approved") return { kind: "already_paid", payment };
    if (payment.saved_card_id !== input.card.id) {
      // Another way of paying is open (a provider's page, a voucher): closed first, so that the
      // thing cannot be paid twice.
      if ((await replace(payment)) === "paid") {
        return { kind: "already_paid", payment: (await findPayment(payment.id)) ?? payment };
      }
      payment = await openOrResume(wanted, input.card.id);
      if (payment.status === "approved") return { kind: "already_paid", payment };
    }
    const opened = payment;
    const outcome = await reach(() =>
      provider.chargeSavedCard({
        paymentId: opened.id,
        amount: Number(opened.amount),
        currency: "MXN",
        description: input.description,
        customerRef: input.card.customerRef,
        methodRef: input.card.methodRef,
        offSession: input.offSession,
        idempotencyKey: input.idempotencyKey ?? `saved-card-${opened.id}`,
      }),
    );
    await settle(outcome);
    const now = (await findPayment(opened.id)) ?? opened;
    if (now.status === "approved") return { kind: "approved", payment: now };
    if (now.status === "declined") {
      return {
        kind: "declined",
        reason: (now.decline_reason as DeclineReason | null) ?? "card_declined",
        payment: now,
      };
    }
    return { kind: "pending", payment: now };
  }

  return {
    provider,
    chargeSavedCard,
    registerPurpose(purpose, handler) {
      purposes.set(purpose, handler);
    },
    async begin(input) {
      if (!purposes.has(input.purpose)) throw new Error(`Unknown payment purpose ${input.purpose}`);
      let payment = await openOrResume(input);
      if (payment.status === "approved") return { kind: "already_paid", payment };
      // Another method, or a saved card's charge left without an answer: closed first.
      if (payment.method !== input.method || payment.saved_card_id !== null) {
        if ((await replace(payment)) === "paid") {
          return { kind: "already_paid", payment: (await findPayment(payment.id)) ?? payment };
        }
        payment = await openOrResume(input);
        if (payment.status === "approved") return { kind: "already_paid", payment };
      }
      if (payment.checkout_url) return { kind: "redirect", url: payment.checkout_url, payment };
      if (payment.instructions) return { kind: "instructions", payment };
      const deadline = new Date(Date.now() + voucherHours * HOUR_MS);
      const checkout = await reach(() =>
        provider.createCheckout({
          paymentId: payment.id,
          amount: Number(payment.amount),
          currency: "MXN",
          method: input.method,
          description: input.description,
          returnUrl: input.returnUrl,
          notifyUrl: `${input.origin}/payments/webhook/${provider.name}`,
          expiresAt: deadline,
          customerEmail: input.customerEmail,
          saveCardFor: input.method === "card" ? (input.saveCardFor ?? null) : null,
        }),
      );
      const stored = {
        provider_reference: checkout.providerReference,
        checkout_url: checkout.redirectUrl,
        // Known before the provider's page has issued the voucher: the sweep finds it even if
        // that news is lost.
        expires_at: input.method === "card" ? null : deadline.toISOString(),
        ...instructionColumns(checkout.instructions),
        updated_at: nowIso(),
      };
      const issued = { ...payment, ...stored };
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("payments").set(stored).where("id", "=", payment.id).execute();
        if (checkout.instructions) {
          await purposes.get(input.purpose)?.onInstructions?.(trx, issued);
        }
      });
      payment = issued;
      return checkout.redirectUrl
        ? { kind: "redirect", url: checkout.redirectUrl, payment }
        : { kind: "instructions", payment };
    },
    latest,
    async handleNotification(rawBody, headers) {
      const notification = await provider.parseNotification(rawBody, headers);
      if (notification === "invalid") {
        logger.warn({ msg: "payment notification refused: bad signature or body" });
        return "invalid";
      }
      if (!notification.outcome) return "duplicate";
      return settle(notification.outcome, notification.eventId);
    },
    settle,
    refresh,
    async refreshOverdue(now = new Date()) {
      const overdue = await db
        .selectFrom("payments")
        .selectAll()
        .where("status", "=", "pending")
        .where("expires_at", "<", now.toISOString())
        .limit(100)
        .execute();
      for (const payment of overdue) {
        try {
          await expireOverdue(payment);
        } catch (error) {
          logger.warn({
            msg: "overdue payment not refreshed",
            paymentId: payment.id,
            reason: error instanceof Error ? error.message : "unknown",
          });
        }
      }
      return overdue.length;
    },
  };
}

/**
 * Payments pending now, by method, and how many of them are past their expiry (vouchers and
 * transfers the overdue sweep has not closed yet): for the server's metrics. One indexed read
 * (payments_pending_by_expiry).
 */
export async function pendingPaymentsByMethod(
  db: Db,
  now = new Date(),
): Promise<Array<{ method: string; pending: number; pastExpiry: number }>> {
  const rows = await db
    .selectFrom("payments")
    .select((eb) => [
      "method",
      eb.fn.countAll<number>().as("pending"),
      eb.fn
        .sum<number>(eb.case().when("expires_at", "<", now.toISOString()).then(1).else(0).end())
        .as("pastExpiry"),
    ])
    .where("status", "=", "pending")
    .groupBy("method")
    .execute();
  return rows.map((row) => ({
    method: row.method,
    pending: Number(row.pending),
    pastExpiry: Number(row.pastExpiry ?? 0),
  }));
}

/** How the approved payment of an order or a top-up was made: the method, and a card's brand and last four. */
export interface ApprovedPayment {
  method: PaymentMethod;
  cardBrand: CardBrand | null;
  cardLast4: string | null;
}

/** The latest approved payment of one thing paid for (its purpose and reference), if there is one. */
export async function approvedPayment(
  db: Db,
  purpose: string,
  reference: string,
): Promise<ApprovedPayment | null> {
  const row = await db
    .selectFrom("payments")
    .select(["method", "card_brand", "card_last4"])
    .where("purpose", "=", purpose)
    .where("reference", "=", reference)
    .where("status", "=", "approved")
    .orderBy("settled_at", "desc")
    .executeTakeFirst();
  if (!row || !isPaymentMethod(row.method)) return null;
  return {
    method: row.method,
    cardBrand: row.card_brand ? toCardBrand(row.card_brand) : null,
    cardLast4: row.card_last4,
  };
}
