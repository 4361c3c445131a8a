import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import { nextInSeries } from "~/db/folio-counter.server";
import type { SandboxCheckoutsTable, SandboxPaymentMethodsTable } from "~/db/schema";
import { luhnCheckDigit } from "~/lib/luhn";
import { clabeControlDigit } from "../clabe";
import {
  DECLINE_REASONS,
  isPaymentMethod,
  type DeclineReason,
  type PaymentInstructions,
  type PaymentOutcome,
  type PaymentProvider,
  type ProviderCard,
  toCardBrand,
} from "../provider";
import { cardBrand, sandboxOutcome, savedCardBehaviour, savedCardOutcome } from "./card-rules";
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
   * Charges a validated card to an open card checkout, then notifies the store. A checkout that
   * saves its card (decision 0119) keeps what the test card does later, never its number.
   * Returns the checkout as it ends up (unchanged when it was no longer open).
   */
  pay(
    id: string,
    cardNumberDigits: string,
    expiry?: { month: number; year: number },
  ): Promise<SandboxCheckout | null>;
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
  /** The card saved with this payment, as the store keeps it. */
  saved_card: {
    method_id: string;
    customer_id: string;
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
  } | null;
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

function providerCard(method: SandboxPaymentMethodsTable): ProviderCard {
  return {
    customerRef: method.customer_ref,
    methodRef: method.id,
    brand: toCardBrand(method.brand),
    last4: method.last4,
    expMonth: Number(method.exp_month),
    expYear: Number(method.exp_year),
  };
}

function toOutcome(
  checkout: SandboxCheckout,
  savedCard: SandboxPaymentMethodsTable | null = null,
): PaymentOutcome {
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
    savedCard: savedCard ? providerCard(savedCard) : null,
  };
}

function isSavedCardBody(value: unknown): value is NonNullable<NotificationBody["saved_card"]> {
  if (!value || typeof value !== "object") return false;
  const card = value as Record<string, unknown>;
  return (
    typeof card.method_id === "string" &&
    typeof card.customer_id === "string" &&
    typeof card.brand === "string" &&
    typeof card.last4 === "string" &&
    Number.isInteger(card.exp_month) &&
    Number.isInteger(card.exp_year)
  );
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
    (body.decline_reason !== null && !DECLINE_REASONS.includes(body.decline_reason)) ||
    (body.saved_card != null && !isSavedCardBody(body.saved_card))
  ) {
    return null;
  }
  const saved = body.saved_card ?? null;
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
      savedCard: saved
        ? {
            customerRef: saved.customer_id,
            methodRef: saved.method_id,
            brand: toCardBrand(saved.brand),
            last4: saved.last4,
            expMonth: saved.exp_month,
            expYear: saved.exp_year,
          }
        : null,
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

  async function findMethod(id: string | null) {
    if (!id) return null;
    return (
      (await db
        .selectFrom("sandbox_payment_methods")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst()) ?? null
    );
  }

  /** The checkout's outcome; with the card it saved, when it was an approved saving payment. */
  async function outcomeOf(checkout: SandboxCheckout): Promise<PaymentOutcome> {
    const saved =
      checkout.status === "approved" && checkout.save_for_customer
        ? await findMethod(checkout.payment_method_id)
        : null;
    return toOutcome(checkout, saved);
  }

  async function notify(checkout: SandboxCheckout) {
    const outcome = await outcomeOf(checkout);
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
      saved_card: outcome.savedCard
        ? {
            method_id: outcome.savedCard.methodRef,
            customer_id: outcome.savedCard.customerRef,
            brand: outcome.savedCard.brand,
            last4: outcome.savedCard.last4,
            exp_month: outcome.savedCard.expMonth,
            exp_year: outcome.savedCard.expYear,
          }
        : null,
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
    change: Partial<
      Pick<SandboxCheckout, "decline_reason" | "card_brand" | "card_last4" | "payment_method_id">
    > & {
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
              save_for_customer: input.method === "card" ? input.saveCardFor : null,
              payment_method_id: null,
              idempotency_key: null,
              off_session: 0,
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
      return checkout ? outcomeOf(checkout) : null;
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
    async pay(id, digits, expiry) {
      const checkout = await findCheckout(id);
      if (!checkout || checkout.method !== "card") return checkout;
      const verdict = sandboxOutcome(digits);
      const saving =
        verdict.status === "approved" && checkout.save_for_customer && checkout.status === "open";
      let methodId: string | null = null;
      if (saving) {
        // Its own vault: what the test card does later, and what the customer reads of it.
        methodId = `spm_${randomBytes(12).toString("base64url")}`;
        await db
          .insertInto("sandbox_payment_methods")
          .values({
            id: methodId,
            customer_ref: checkout.save_for_customer!,
            brand: cardBrand(digits),
            last4: digits.slice(-4),
            exp_month: expiry?.month ?? 12,
            exp_year: expiry?.year ?? new Date().getUTCFullYear() + 4,
            behaviour: savedCardBehaviour(digits),
            created_at: nowIso(),
            detached_at: null,
          })
          .execute();
      }
      return (
        (await complete(id, {
          status: verdict.status,
          decline_reason: verdict.status === "declined" ? verdict.reason : null,
          card_brand: cardBrand(digits),
          card_last4: digits.slice(-4),
          payment_method_id: methodId,
        })) ?? (await findCheckout(id))
      );
    },
    async createCustomer() {
      // The store keeps one per account (payment_customers): the sandbox needs no record of it.
      return `scus_${randomBytes(12).toString("base64url")}`;
    },
    async chargeSavedCard(input) {
      const earlier = await db
        .selectFrom("sandbox_checkouts")
        .selectAll()
        .where((eb) =>
          eb.or([
            eb("idempotency_key", "=", input.idempotencyKey),
            eb("merchant_reference", "=", input.paymentId),
          ]),
        )
        .executeTakeFirst();
      if (earlier) return outcomeOf(earlier);
      const method = await findMethod(input.methodRef);
      const usable = method && !method.detached_at && method.customer_ref === input.customerRef;
      const verdict = usable
        ? savedCardOutcome(method.behaviour)
        : { status: "declined" as const, reason: "payment_failed" as const };
      const now = nowIso();
      const row: SandboxCheckout = {
        id: `chk_${randomBytes(12).toString("base64url")}`,
        merchant_reference: input.paymentId,
        amount: input.amount,
        currency: input.currency,
        description: input.description,
        return_url: "",
        notify_url: "",
        status: verdict.status,
        decline_reason: verdict.status === "declined" ? verdict.reason : null,
        card_brand: method?.brand ?? null,
        card_last4: method?.last4 ?? null,
        created_at: now,
        completed_at: now,
        method: "card",
        reference: null,
        clabe: null,
        expires_at: null,
        save_for_customer: null,
        payment_method_id: input.methodRef,
        idempotency_key: input.idempotencyKey,
        off_session: input.offSession ? 1 : 0,
      };
      try {
        await db.insertInto("sandbox_checkouts").values(row).execute();
      } catch (error) {
        // The same key (or payment) charged by a concurrent call: its charge is the one.
        if (!isUniqueViolation(error)) throw error;
        const winner = await db
          .selectFrom("sandbox_checkouts")
          .selectAll()
          .where("idempotency_key", "=", input.idempotencyKey)
          .executeTakeFirst();
        if (!winner) throw error;
        return outcomeOf(winner);
      }
      logger.info({
        msg: "sandbox saved card charged",
        checkoutId: row.id,
        status: row.status,
        offSession: input.offSession,
      });
      return toOutcome(row);
    },
    async detachCard(methodRef) {
      await db
        .updateTable("sandbox_payment_methods")
        .set({ detached_at: nowIso() })
        .where("id", "=", methodRef)
        .where("detached_at", "is", null)
        .execute();
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
