import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import { nextFolio } from "~/db/folio-counter.server";
import type { PortabilityRequestsTable, PortabilityStatus } from "~/db/schema";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { createSealedBox, type SealedBox } from "~/lib/sealed-box.server";
import type { PortabilityInput } from "./portability-schema";

export const PORTABILITY_SERIES = "POR";
export const OPEN_STATUSES: readonly PortabilityStatus[] = ["received", "in_progress"];

/** What the store shows of a request. The NIP is not part of it: it is never shown back. */
export interface PortabilityRequest {
  id: string;
  folio: string;
  status: PortabilityStatus;
  phoneNumber: string;
  fullName: string;
  email: string;
  currentCarrier: string;
  iccid: string | null;
  createdAt: string;
  /** The date (YYYY-MM-DD) the port is scheduled for, once "Programada". */
  scheduledFor: string | null;
  /** Why it was rejected, as the customer is told. */
  rejectionReason: string | null;
  /** The account of the customer signed in when requesting: the ported line goes there. */
  customerSub: string | null;
}

export type SubmitOutcome =
  | { kind: "accepted"; request: PortabilityRequest; created: boolean }
  /**
   * The number already has a request being processed. Its folio is not part of the answer: whoever
   * submitted this may not be the one who submitted that (a stranger's number).
   */
  | { kind: "open_request_exists" };

/** Who asked: the signed-in customer's Cognito `sub`, or null for a guest. */
export interface Requester {
  customerSub: string | null;
}

export interface PortabilityRequests {
  /**
   * Records the request once per idempotency key: a resubmitted form gets the request the first
   * submission created. A second open request for the same number is refused.
   */
  submit(input: PortabilityInput, requester?: Requester): Promise<SubmitOutcome>;
  /** The status lookup: both the folio and the number must match. */
  lookup(folio: string, phoneNumber: string): Promise<PortabilityRequest | null>;
  /** A request this browser submitted (its ids come from a sealed cookie), found by folio. */
  findSubmitted(folio: string, ids: readonly string[]): Promise<PortabilityRequest | null>;
  /** The NIP, for the porting process only; never for a page or a log line. */
  revealNip(id: string): Promise<string | null>;
  /**
   * The NIP's seal, for the checkout: an order's numbers to keep wait for its payment with their
   * NIP sealed as a request's (decision 0106).
   */
  readonly nipBox: SealedBox;
}

/**
 * Writes a request and queues its "received" e-mail, in the caller's transaction. `ifFree`: a
 * number with a request in process (or a key already used) writes nothing, without the error
 * that would end the caller's transaction on PostgreSQL; answers whether it was written.
 */
export async function recordRequest(
  trx: Db,
  values: PortabilityRequestsTable,
  { ifFree = false }: { ifFree?: boolean } = {},
): Promise<boolean> {
  const insert = trx.insertInto("portability_requests").values(values);
  const written = ifFree
    ? await insert.onConflict((conflict) => conflict.doNothing()).executeTakeFirst()
    : await insert.executeTakeFirst();
  if (Number(written.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
  await enqueueMail(trx, {
    dedupeKey: `portability-received:${values.id}`,
    to: values.email,
    template: "portability_received",
    data: { requestId: values.id },
  });
  return true;
}

/** The NIP's key: derived from the session secrets, for this column only. */
export function createNipBox(secrets: readonly string[]): SealedBox {
  return createSealedBox({
    secrets,
    salt: "storefront-field",
    purpose: "portability_requests.nip",
  });
}

function toRequest(row: PortabilityRequestsTable): PortabilityRequest {
  return {
    id: row.id,
    folio: row.folio,
    status: row.status,
    phoneNumber: row.phone_number,
    fullName: row.full_name,
    email: row.email,
    currentCarrier: row.current_carrier,
    iccid: row.iccid,
    createdAt: row.created_at,
    scheduledFor: row.scheduled_for,
    rejectionReason: row.rejection_reason,
    customerSub: row.customer_sub,
  };
}

export function createPortabilityRequests({
  db,
  nipBox,
}: {
  db: Db;
  nipBox: SealedBox;
}): PortabilityRequests {
  const requests = () => db.selectFrom("portability_requests").selectAll();

  async function byKey(key: string) {
    const row = await requests().where("idempotency_key", "=", key).executeTakeFirst();
    return row ? toRequest(row) : null;
  }

  /**
   * What an open request for the number means for this submission: its own request when a twin
   * of it (a double click, on another worker) recorded it since the key was looked up — the same
   * submission, answered with its folio — or else someone else's request, which this one may not
   * see. Null when the number has none.
   */
  async function openRequestOutcome(input: PortabilityInput): Promise<SubmitOutcome | null> {
    const row = await requests()
      .where("phone_number", "=", input.phone_number)
      .where("status", "in", OPEN_STATUSES)
      .executeTakeFirst();
    if (!row) return null;
    return row.idempotency_key === input.idempotency_key
      ? { kind: "accepted", request: toRequest(row), created: false }
      : { kind: "open_request_exists" };
  }

  /** After losing a race (a unique index refused the insert), what the winner means for us. */
  async function settleConflict(input: PortabilityInput): Promise<SubmitOutcome | null> {
    const winner = await byKey(input.idempotency_key);
    if (winner) return { kind: "accepted", request: winner, created: false };
    return openRequestOutcome(input);
  }

  return {
    nipBox,
    async submit(input, requester = { customerSub: null }) {
      const existing = await byKey(input.idempotency_key);
      if (existing) return { kind: "accepted", request: existing, created: false };
      const open = await openRequestOutcome(input);
      if (open) return open;
      const now = nowIso();
      const id = randomBytes(16).toString("base64url");
      try {
        const row = await db.transaction().execute(async (trx) => {
          const values: PortabilityRequestsTable = {
            id,
            folio: await nextFolio(trx, PORTABILITY_SERIES),
            idempotency_key: input.idempotency_key,
            phone_number: input.phone_number,
            nip_sealed: nipBox.seal(input.nip, id),
            full_name: input.full_name,
            email: input.email,
            curp: input.curp,
            current_carrier: input.current_carrier,
            iccid: input.iccid ?? null,
            status: "received",
            terms_accepted_at: now,
            created_at: now,
            updated_at: now,
            scheduled_for: null,
            rejection_reason: null,
            customer_sub: requester.customerSub,
          };
          await recordRequest(trx, values);
          return values;
        });
        return { kind: "accepted", request: toRequest(row), created: true };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const outcome = await settleConflict(input);
        if (!outcome) throw error;
        return outcome;
      }
    },

    async lookup(folio, phoneNumber) {
      const row = await requests()
        .where("folio", "=", folio)
        .where("phone_number", "=", phoneNumber)
        .executeTakeFirst();
      return row ? toRequest(row) : null;
    },

    async findSubmitted(folio, ids) {
      if (ids.length === 0) return null;
      const row = await requests()
        .where("folio", "=", folio)
        .where("id", "in", ids)
        .executeTakeFirst();
      return row ? toRequest(row) : null;
    },

    async revealNip(id) {
      const row = await db
        .selectFrom("portability_requests")
        .select("nip_sealed")
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? nipBox.open(row.nip_sealed, id) : null;
    },
  };
}

/**
 * Which of these numbers have a request in process: the checkout tells its customer before the
 * order is placed, as the request form does (without the folio: it may be a stranger's).
 */
export async function numbersInProcess(db: Db, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .selectFrom("portability_requests")
    .select("phone_number")
    .where("phone_number", "in", numbers)
    .where("status", "in", OPEN_STATUSES)
    .execute();
  return new Set(rows.map((row) => row.phone_number));
}

/** One of a customer's portability requests, as their account lists it. */
export interface CustomerPortabilitySummary {
  folio: string;
  status: PortabilityStatus;
  phoneNumber: string;
  scheduledFor: string | null;
  createdAt: string;
}

/**
 * A signed-in customer's portability requests, newest first: made while signed in, or as a guest
 * with the e-mail their account proved (the rule orders follow, decision 0081).
 */
export async function listCustomerPortabilityRequests(
  db: Db,
  customer: { sub: string; email: string; emailProven: boolean },
  limit = 10,
): Promise<CustomerPortabilitySummary[]> {
  const email = customer.email.trim().toLowerCase();
  const rows = await db
    .selectFrom("portability_requests")
    .select(["folio", "status", "phone_number", "scheduled_for", "created_at"])
    .where((eb) =>
      customer.emailProven
        ? eb.or([
            eb("customer_sub", "=", customer.sub),
            eb.and([eb("customer_sub", "is", null), eb(sql<string>`lower(email)`, "=", email)]),
          ])
        : eb("customer_sub", "=", customer.sub),
    )
    .orderBy("created_at", "desc")
    .orderBy("folio", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    folio: row.folio,
    status: row.status,
    phoneNumber: row.phone_number,
    scheduledFor: row.scheduled_for,
    createdAt: row.created_at,
  }));
}
