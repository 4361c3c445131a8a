import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import type { SandboxCheckoutsTable } from "~/db/schema";
import {
  DECLINE_REASONS,
  type DeclineReason,
  type PaymentOutcome,
  type PaymentProvider,
} from "../provider";
import { cardBrand, sandboxOutcome } from "./card-rules";
import {
  SIGNATURE_HEADER,
  signNotification,
  verifyNotificationSignature,
} from "./signature.server";

export type SandboxCheckout = SandboxCheckoutsTable;

const NOTIFICATION_TIMEOUT_MS = 5_000;

/**
 * The sandbox: a payment provider served by the app itself for development, tests and demos.
 * It plays both sides a real provider has: the store's client (create, verify, retrieve) and the
 * provider's own hosted page (`/sandbox/pago/<id>`), which pays with test cards and then posts a
 * signed notification to the store, exactly as a real provider would.
 */
export interface SandboxGateway extends PaymentProvider {
  findCheckout(id: string): Promise<SandboxCheckout | null>;
  /**
   * Charges a validated card to an open checkout, then notifies the store. Returns the checkout
   * as it ends up (unchanged when it was no longer open).
   */
  pay(id: string, cardNumberDigits: string): Promise<SandboxCheckout | null>;
}

export const SANDBOX_PATH_PREFIX = "/sandbox/pago/";

interface NotificationBody {
  checkout_id: string;
  payment_id: string;
  status: "approved" | "declined";
  amount: number;
  currency: string;
  decline_reason: DeclineReason | null;
  card_brand: string | null;
  card_last4: string | null;
}

function toOutcome(checkout: SandboxCheckout): PaymentOutcome {
  return {
    paymentId: checkout.merchant_reference,
    providerReference: checkout.id,
    status: checkout.status === "open" ? "pending" : checkout.status,
    amount: Number(checkout.amount),
    currency: checkout.currency,
    declineReason: (checkout.decline_reason as DeclineReason | null) ?? null,
    card:
      checkout.card_brand && checkout.card_last4
        ? { brand: checkout.card_brand, last4: checkout.card_last4 }
        : null,
  };
}

function parseBody(rawBody: string): PaymentOutcome | null {
  let body: NotificationBody;
  try {
    body = JSON.parse(rawBody) as NotificationBody;
  } catch {
    return null;
  }
  if (
    !body ||
    typeof body.checkout_id !== "string" ||
    typeof body.payment_id !== "string" ||
    (body.status !== "approved" && body.status !== "declined") ||
    !Number.isInteger(body.amount) ||
    typeof body.currency !== "string" ||
    (body.decline_reason !== null && !DECLINE_REASONS.includes(body.decline_reason))
  ) {
    return null;
  }
  return {
    paymentId: body.payment_id,
    providerReference: body.checkout_id,
    status: body.status,
    amount: body.amount,
    currency: body.currency,
    declineReason: body.decline_reason,
    card:
      typeof body.card_brand === "string" && typeof body.card_last4 === "string"
        ? { brand: body.card_brand, last4: body.card_last4 }
        : null,
  };
}

export function createSandboxGateway(options: {
  db: Db;
  /** The first key signs; every key verifies (rotation). */
  notificationKeys: Buffer[];
  logger: Pick<Logger, "info" | "warn">;
  fetch?: typeof fetch;
}): SandboxGateway {
  const { db, notificationKeys, logger } = options;
  const send = options.fetch ?? fetch;

  async function findCheckout(id: string) {
    return (
      (await db
        .selectFrom("sandbox_checkouts")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst()) ?? null
    );
  }

  async function notify(checkout: SandboxCheckout) {
    const outcome = toOutcome(checkout);
    if (outcome.status === "pending") return;
    const body: NotificationBody = {
      checkout_id: checkout.id,
      payment_id: checkout.merchant_reference,
      status: outcome.status,
      amount: outcome.amount,
      currency: outcome.currency,
      decline_reason: outcome.declineReason,
      card_brand: checkout.card_brand,
      card_last4: checkout.card_last4,
    };
    const raw = JSON.stringify(body);
    try {
      const response = await send(checkout.notify_url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          [SIGNATURE_HEADER]: signNotification(notificationKeys[0], raw),
        },
        body: raw,
        signal: AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS),
      });
      if (!response.ok) {
        logger.warn({
          msg: "sandbox notification answered",
          status: response.status,
          checkoutId: checkout.id,
        });
      }
    } catch (error) {
      // The store also asks for the state when the customer returns, so nothing is lost.
      logger.warn({
        msg: "sandbox notification not delivered",
        checkoutId: checkout.id,
        reason: error instanceof Error ? error.message : "unknown",
      });
    }
  }

  return {
    name: "sandbox",
    async createCheckout(input) {
      const existing = await db
        .selectFrom("sandbox_checkouts")
        .selectAll()
        .where("merchant_reference", "=", input.paymentId)
        .executeTakeFirst();
      const checkout: SandboxCheckout = existing ?? {
        id: `chk_${randomBytes(12).toString("base64url")}`,
        merchant_reference: input.paymentId,
        amount: input.amount,
        currency: input.currency,
        description: input.description,
        return_url: input.returnUrl,
        notify_url: input.notifyUrl,
        status: "open",
        decline_reason: null,
        card_brand: null,
        card_last4: null,
        created_at: nowIso(),
        completed_at: null,
      };
      if (!existing) {
        try {
          await db.insertInto("sandbox_checkouts").values(checkout).execute();
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const winner = await db
            .selectFrom("sandbox_checkouts")
            .selectAll()
            .where("merchant_reference", "=", input.paymentId)
            .executeTakeFirstOrThrow();
          return {
            providerReference: winner.id,
            redirectUrl: `${SANDBOX_PATH_PREFIX}${winner.id}`,
          };
        }
      }
      return {
        providerReference: checkout.id,
        redirectUrl: `${SANDBOX_PATH_PREFIX}${checkout.id}`,
      };
    },
    verifyNotification(rawBody, headers) {
      if (!verifyNotificationSignature(notificationKeys, headers.get(SIGNATURE_HEADER), rawBody)) {
        return null;
      }
      return parseBody(rawBody);
    },
    async retrieve(providerReference) {
      const checkout = await findCheckout(providerReference);
      return checkout ? toOutcome(checkout) : null;
    },
    findCheckout,
    async pay(id, digits) {
      const verdict = sandboxOutcome(digits);
      const now = nowIso();
      const result = await db
        .updateTable("sandbox_checkouts")
        .set({
          status: verdict.status,
          decline_reason: verdict.status === "declined" ? verdict.reason : null,
          card_brand: cardBrand(digits),
          card_last4: digits.slice(-4),
          completed_at: now,
        })
        .where("id", "=", id)
        .where("status", "=", "open")
        .executeTakeFirst();
      const checkout = await findCheckout(id);
      if (checkout && Number(result.numUpdatedRows) === 1) await notify(checkout);
      return checkout;
    },
  };
}
