import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import { nextInSeries } from "~/db/folio-counter.server";
import type { SandboxCheckoutsTable } from "~/db/schema";
import { luhnCheckDigit } from "~/lib/luhn";
import { clabeControlDigit } from "../clabe";
import {
  DECLINE_REASONS,
  isPaymentMethod,
  type DeclineReason,
  type PaymentInstructions,
  type PaymentOutcome,
  type PaymentProvider,
  toCardBrand,
} from "../provider";
import { cardBrand, sandboxOutcome } from "./card-rules";
import {
  SIGNATURE_HEADER,
  signNotification,
  verifyNotificationSignature,
} from "./signature.server";

export type SandboxCheckout = SandboxCheckoutsTable;

const NOTIFICATION_TIMEOUT_MS = 5_000;

/** The sandbox's bank for transfers: STP (646), plaza 180, as collection accounts often are. */
const SANDBOX_BANK = { code: "646", plaza: "180", name: "STP (entorno de pruebas)" };
export const SANDBOX_BENEFICIARY = "Conecta Móvil Telecomunicaciones, S.A. de C.V.";

/** A 14-digit voucher number: "93", a 11-digit sequence and a check digit. */
export function sandboxCashReference(sequence: number): string {
  const body = `93${String(sequence).padStart(11, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** One CLABE per transfer: the sequence is the account number; the control digit is Banxico's. */
export function sandboxClabe(sequence: number): string {
  const first17 = `${SANDBOX_BANK.code}${SANDBOX_BANK.plaza}${String(sequence).padStart(11, "0")}`;
  return `${first17}${clabeControlDigit(first17)}`;
}

/** The numeric reference of a transfer: seven digits, as bank apps accept. */
export function sandboxTransferReference(sequence: number): string {
  return String(sequence % 10_000_000).padStart(7, "0");
}

/**
 * The sandbox: a payment provider served by the app itself for development, tests and demos.
 * It plays both sides a real provider has: the store's client (create, verify, retrieve, close)
 * and the provider's own pages (`/sandbox/pago/<id>`): a card form, or, for a cash voucher or a
 * transfer, the simulator of the payment in a store or at a bank, or of the voucher's expiry.
 * Each outcome is posted to the store as a signed notification, exactly as a real provider would.
 */
export interface SandboxGateway extends PaymentProvider {
  findCheckout(id: string): Promise<SandboxCheckout | null>;
  /**
   * Charges a validated card to an open card checkout, then notifies the store. Returns the
   * checkout as it ends up (unchanged when it was no longer open).
   */
  pay(id: string, cardNumberDigits: string): Promise<SandboxCheckout | null>;
  /** A voucher paid at a store or a transfer received; or its expiry. Then notifies the store. */
  simulate(id: string, outcome: "paid" | "expired"): Promise<SandboxCheckout | null>;
}

export const SANDBOX_PATH_PREFIX = "/sandbox/pago/";

interface NotificationBody {
  event_id: string;
  checkout_id: string;
  payment_id: string;
  status: "approved" | "declined" | "expired";
  amount: number;
  currency: string;
  decline_reason: DeclineReason | null;
  card_brand: string | null;
  card_last4: string | null;
}

function isExpired(checkout: SandboxCheckout, now: Date): boolean {
  return (
    checkout.status === "open" &&
    checkout.expires_at !== null &&
    checkout.expires_at < now.toISOString()
  );
}

function instructionsOf(checkout: SandboxCheckout): PaymentInstructions | null {
  if (!checkout.reference || !checkout.expires_at) return null;
  if (checkout.method === "cash") {
    return {
      method: "cash",
      reference: checkout.reference,
      expiresAt: checkout.expires_at,
      hostedUrl: null,
    };
  }
  if (checkout.method === "spei" && checkout.clabe) {
    return {
      method: "spei",
      clabe: checkout.clabe,
      reference: checkout.reference,
      bank: SANDBOX_BANK.name,
      beneficiary: SANDBOX_BENEFICIARY,
      expiresAt: checkout.expires_at,
      hostedUrl: null,
    };
  }
  return null;
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
        ? { brand: toCardBrand(checkout.card_brand), last4: checkout.card_last4 }
        : null,
    instructions: instructionsOf(checkout),
  };
}

function parseBody(rawBody: string): { eventId: string; outcome: PaymentOutcome } | null {
  let body: NotificationBody;
  try {
    body = JSON.parse(rawBody) as NotificationBody;
  } catch {
    return null;
  }
  if (
    !body ||
    typeof body.event_id !== "string" ||
    typeof body.checkout_id !== "string" ||
    typeof body.payment_id !== "string" ||
    !["approved", "declined", "expired"].includes(body.status) ||
    !Number.isInteger(body.amount) ||
    typeof body.currency !== "string" ||
    (body.decline_reason !== null && !DECLINE_REASONS.includes(body.decline_reason))
  ) {
    return null;
  }
  return {
    eventId: body.event_id,
    outcome: {
      paymentId: body.payment_id,
      providerReference: body.checkout_id,
      status: body.status,
      amount: body.amount,
      currency: body.currency,
      declineReason: body.decline_reason,
      card:
        typeof body.card_brand === "string" && typeof body.card_last4 === "string"
          ? { brand: toCardBrand(body.card_brand), last4: body.card_last4 }
          : null,
      instructions: null,
    },
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
    const checkout =
      (await db
        .selectFrom("sandbox_checkouts")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst()) ?? null;
    if (checkout && isExpired(checkout, new Date())) {
      // A voucher past its date is expired on the provider's side too, once, with its notice.
      return (await complete(checkout.id, { status: "expired" })) ?? checkout;
    }
    return checkout;
  }

  async function notify(checkout: SandboxCheckout) {
    const outcome = toOutcome(checkout);
    if (outcome.status === "pending") return;
    const body: NotificationBody = {
      event_id: `evt_${randomBytes(12).toString("base64url")}`,
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

  /** Moves an open checkout to its outcome, once, and notifies the store; null if it was not open. */
  async function complete(
    id: string,
    change: Partial<Pick<SandboxCheckout, "decline_reason" | "card_brand" | "card_last4">> & {
      status: "approved" | "declined" | "expired";
    },
  ): Promise<SandboxCheckout | null> {
    const result = await db
      .updateTable("sandbox_checkouts")
      .set({ ...change, completed_at: nowIso() })
      .where("id", "=", id)
      .where("status", "=", "open")
      .executeTakeFirst();
    const checkout =
      (await db
        .selectFrom("sandbox_checkouts")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst()) ?? null;
    if (!checkout || Number(result.numUpdatedRows) !== 1) return null;
    await notify(checkout);
    return checkout;
  }

  /** A voucher number or a CLABE and reference, from sequences that never repeat. */
  async function issue(trx: Db, method: string) {
    if (method === "cash") {
      return {
        reference: sandboxCashReference(await nextInSeries(trx, "SANDBOX-CASH")),
        clabe: null,
      };
    }
    if (method === "spei") {
      const sequence = await nextInSeries(trx, "SANDBOX-SPEI");
      return { reference: sandboxTransferReference(sequence), clabe: sandboxClabe(sequence) };
    }
    return { reference: null, clabe: null };
  }

  const pageOf = (checkout: SandboxCheckout) => `${SANDBOX_PATH_PREFIX}${checkout.id}`;

  return {
    name: "sandbox",
    // Its pages are this site's own.
    pageOrigins: [],
    async createCheckout(input) {
      if (!isPaymentMethod(input.method)) throw new Error(`Unknown method ${String(input.method)}`);
      let checkout = await db
        .selectFrom("sandbox_checkouts")
        .selectAll()
        .where("merchant_reference", "=", input.paymentId)
        .executeTakeFirst();
      if (!checkout) {
        try {
          checkout = await db.transaction().execute(async (trx) => {
            const row: SandboxCheckout = {
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
              method: input.method,
              ...(await issue(trx, input.method)),
              expires_at: input.method === "card" ? null : input.expiresAt.toISOString(),
            };
            await trx.insertInto("sandbox_checkouts").values(row).execute();
            return row;
          });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          checkout = await db
            .selectFrom("sandbox_checkouts")
            .selectAll()
            .where("merchant_reference", "=", input.paymentId)
            .executeTakeFirstOrThrow();
        }
      }
      const instructions = instructionsOf(checkout);
      return {
        providerReference: checkout.id,
        redirectUrl: instructions ? null : pageOf(checkout),
        instructions,
      };
    },
    async parseNotification(rawBody, headers) {
      if (!verifyNotificationSignature(notificationKeys, headers.get(SIGNATURE_HEADER), rawBody)) {
        return "invalid";
      }
      return parseBody(rawBody) ?? "invalid";
    },
    async retrieve(providerReference) {
      const checkout = await findCheckout(providerReference);
      return checkout ? toOutcome(checkout) : null;
    },
    async close(providerReference) {
      const closed = await db
        .updateTable("sandbox_checkouts")
        .set({ status: "expired", completed_at: nowIso() })
        .where("id", "=", providerReference)
        .where("status", "=", "open")
        .executeTakeFirst();
      if (Number(closed.numUpdatedRows) === 1) return "closed";
      const checkout = await findCheckout(providerReference);
      return checkout?.status === "approved" ? "paid" : "closed";
    },
    findCheckout,
    async pay(id, digits) {
      const checkout = await findCheckout(id);
      if (!checkout || checkout.method !== "card") return checkout;
      const verdict = sandboxOutcome(digits);
      return (
        (await complete(id, {
          status: verdict.status,
          decline_reason: verdict.status === "declined" ? verdict.reason : null,
          card_brand: cardBrand(digits),
          card_last4: digits.slice(-4),
        })) ?? (await findCheckout(id))
      );
    },
    async simulate(id, outcome) {
      const checkout = await findCheckout(id);
      if (!checkout || checkout.method === "card") return checkout;
      return (
        (await complete(id, { status: outcome === "paid" ? "approved" : "expired" })) ??
        (await findCheckout(id))
      );
    },
  };
}
