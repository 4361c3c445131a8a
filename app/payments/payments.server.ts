import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import type { PaymentsTable } from "~/db/schema";
import type { PaymentOutcome, PaymentProvider } from "./provider";

export type Payment = PaymentsTable;

/**
 * What the store does when a payment of one purpose is approved. It runs inside the transaction
 * that records the approval, so both happen exactly once or not at all.
 */
export interface PaymentPurpose {
  onApproved(trx: Db, payment: Payment): Promise<void>;
}

export interface BeginPaymentInput {
  /** "order", "topup", …: a purpose registered with `registerPurpose`. */
  purpose: string;
  /** The id of the thing being paid. */
  reference: string;
  amount: number;
  description: string;
  /** Absolute URL the customer comes back to. */
  returnUrl: string;
  /** This site's public origin, for the notification address. */
  origin: string;
}

export type BeginPaymentResult =
  { kind: "redirect"; url: string; payment: Payment } | { kind: "already_paid"; payment: Payment };

export type SettleResult = "applied" | "duplicate" | "pending" | "rejected";

export interface PaymentService {
  readonly provider: PaymentProvider;
  registerPurpose(purpose: string, handler: PaymentPurpose): void;
  /**
   * Opens a payment for the thing, or resumes the one in flight: a double submission sends the
   * customer to the same payment page. After a decline, a new payment is opened.
   */
  begin(input: BeginPaymentInput): Promise<BeginPaymentResult>;
  latest(purpose: string, reference: string): Promise<Payment | null>;
  /** Verifies and applies a provider notification. */
  handleNotification(rawBody: string, headers: Headers): Promise<SettleResult | "invalid">;
  /** Applies an outcome: the status changes once; replays and stale outcomes change nothing. */
  settle(outcome: PaymentOutcome): Promise<SettleResult>;
  /** Asks the provider about a payment still pending here and applies the answer. */
  refresh(payment: Payment): Promise<Payment>;
}

function newPaymentId(): string {
  return `pay_${randomBytes(12).toString("base64url")}`;
}

export function createPaymentService(options: {
  db: Db;
  provider: PaymentProvider;
  logger: Pick<Logger, "info" | "warn" | "error">;
}): PaymentService {
  const { db, provider, logger } = options;
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

  async function openOrResume(input: BeginPaymentInput): Promise<Payment> {
    try {
      return await db.transaction().execute(async (trx) => {
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
        };
        await trx.insertInto("payments").values(payment).execute();
        return payment;
      });
    } catch (error) {
      // Another request opened the pending payment first (unique index): resume that one.
      if (!isUniqueViolation(error)) throw error;
      const winner = await latest(input.purpose, input.reference);
      if (!winner) throw error;
      return winner;
    }
  }

  async function settle(outcome: PaymentOutcome): Promise<SettleResult> {
    if (outcome.status === "pending") return "pending";
    return db.transaction().execute(async (trx) => {
      const payment = await trx
        .selectFrom("payments")
        .selectAll()
        .where("id", "=", outcome.paymentId)
        .executeTakeFirst();
      if (
        !payment ||
        Number(payment.amount) !== outcome.amount ||
        payment.currency !== outcome.currency ||
        (payment.provider_reference !== null &&
          payment.provider_reference !== outcome.providerReference)
      ) {
        logger.warn({
          msg: "payment outcome does not match a payment",
          paymentId: outcome.paymentId,
        });
        return "rejected";
      }
      const handler = purposes.get(payment.purpose);
      if (!handler) throw new Error(`No handler for payment purpose ${payment.purpose}`);
      const now = nowIso();
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
      if (Number(changed.numUpdatedRows) !== 1) return "duplicate";
      if (outcome.status === "approved") {
        await handler.onApproved(trx, { ...payment, status: "approved", settled_at: now });
      }
      logger.info({ msg: "payment settled", paymentId: payment.id, status: outcome.status });
      return "applied";
    });
  }

  return {
    provider,
    registerPurpose(purpose, handler) {
      purposes.set(purpose, handler);
    },
    async begin(input) {
      if (!purposes.has(input.purpose)) throw new Error(`Unknown payment purpose ${input.purpose}`);
      const payment = await openOrResume(input);
      if (payment.status === "approved") return { kind: "already_paid", payment };
      if (payment.checkout_url) return { kind: "redirect", url: payment.checkout_url, payment };
      const checkout = await provider.createCheckout({
        paymentId: payment.id,
        amount: Number(payment.amount),
        currency: "MXN",
        description: input.description,
        returnUrl: input.returnUrl,
        notifyUrl: `${input.origin}/payments/webhook/${provider.name}`,
      });
      await db
        .updateTable("payments")
        .set({
          provider_reference: checkout.providerReference,
          checkout_url: checkout.redirectUrl,
          updated_at: nowIso(),
        })
        .where("id", "=", payment.id)
        .execute();
      return {
        kind: "redirect",
        url: checkout.redirectUrl,
        payment: {
          ...payment,
          provider_reference: checkout.providerReference,
          checkout_url: checkout.redirectUrl,
        },
      };
    },
    latest,
    async handleNotification(rawBody, headers) {
      const outcome = provider.verifyNotification(rawBody, headers);
      if (!outcome) {
        logger.warn({ msg: "payment notification refused: bad signature or body" });
        return "invalid";
      }
      return settle(outcome);
    },
    settle,
    async refresh(payment) {
      if (payment.status !== "pending" || !payment.provider_reference) return payment;
      const outcome = await provider.retrieve(payment.provider_reference);
      if (outcome && outcome.paymentId === payment.id) await settle(outcome);
      return (await findPayment(payment.id)) ?? payment;
    },
  };
}
