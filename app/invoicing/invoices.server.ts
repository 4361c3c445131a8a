import { randomBytes } from "node:crypto";
import { nextFolio } from "~/db/folio-counter.server";
import { isUniqueViolation, type Db } from "~/db/db.server";
import type { InvoicesTable, InvoiceState } from "~/db/schema";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { recordChange, refuse, type Refusal } from "~/audit/status-changes.server";
import type { Cfdi } from "./cfdi";
import type { FiscalData } from "./fiscal-data";
import {
  isInvoiceProviderUnavailable,
  isInvoiceRefused,
  type InvoiceProvider,
  type StampDetails,
  type StampedInvoice,
} from "./provider";
import { paymentKey, type Purchase } from "./purchases.server";
import { CANCELLATION_MOTIVES, type CancellationMotive, type FormaPago } from "./sat-catalogs";

/**
 * The invoices table (decision 0116): one row per payment, unique on its payment key, written only
 * here. Asking the PAC is claimed first: a conditional write moves the row to `stamping` with a
 * token of this request, and only the holder of the claim asks and records the answer. Two
 * submissions at once (two tabs, two workers, two machines) cannot both hold it, so nothing is
 * stamped twice; the one that did not get the claim waits for the invoice the other one gets.
 * A claim left by a process that died is taken over once it is older than STALE_CLAIM_MS, and
 * asks again under the same idempotency key: the PAC answers with what it already stamped.
 */

export const INVOICE_SERIES = "FAC";

/** Longer than a PAC call may take (FACTURAPI_TIMEOUT_MS is at most 30 s). */
export const STALE_CLAIM_MS = 60_000;

export interface Invoice {
  id: string;
  folio: string;
  paymentKey: string;
  purpose: "order" | "topup";
  reference: string;
  purchaseFolio: string;
  state: InvoiceState;
  uuid: string | null;
  provider: string | null;
  providerInvoiceId: string | null;
  receiver: {
    rfc: string;
    name: string;
    regimen: string;
    postalCode: string;
    uso: string;
  } | null;
  email: string | null;
  formaPago: string | null;
  subtotal: string | null;
  totalTax: string | null;
  total: string | null;
  cfdi: Cfdi | null;
  stamp: StampDetails | null;
  /** The stamped XML as recorded. */
  xml: string | null;
  issuedAt: string | null;
  cancellation: {
    status: "pending" | "accepted";
    motive: string | null;
    substituteUuid: string | null;
    at: string | null;
  } | null;
  accountSub: string | null;
  createdAt: string;
}

function toInvoice(row: InvoicesTable): Invoice {
  return {
    id: row.id,
    folio: row.folio,
    paymentKey: row.payment_key,
    purpose: row.purpose,
    reference: row.reference,
    purchaseFolio: row.purchase_folio,
    state: row.state,
    uuid: row.uuid,
    provider: row.provider,
    providerInvoiceId: row.provider_invoice_id,
    receiver:
      row.receiver_rfc &&
      row.receiver_name &&
      row.receiver_regimen &&
      row.receiver_postal_code &&
      row.uso
        ? {
            rfc: row.receiver_rfc,
            name: row.receiver_name,
            regimen: row.receiver_regimen,
            postalCode: row.receiver_postal_code,
            uso: row.uso,
          }
        : null,
    email: row.email,
    formaPago: row.forma_pago,
    subtotal: row.subtotal,
    totalTax: row.total_tax,
    total: row.total,
    cfdi: row.cfdi ? (JSON.parse(row.cfdi) as Cfdi) : null,
    stamp: row.stamp ? (JSON.parse(row.stamp) as StampDetails) : null,
    xml: row.xml,
    issuedAt: row.issued_at,
    cancellation: row.cancellation_status
      ? {
          status: row.cancellation_status,
          motive: row.cancel_motive,
          substituteUuid: row.substitute_uuid,
          at: row.cancelled_at,
        }
      : null,
    accountSub: row.account_sub,
    createdAt: row.created_at,
  };
}

/** Issued or cancelled: the customer has (had) an invoice for this payment. */
export function hasBeenIssued(invoice: Pick<Invoice, "state">): boolean {
  return invoice.state === "issued" || invoice.state === "cancelled";
}

export async function findInvoice(db: Db, id: string): Promise<Invoice | null> {
  const row = await db.selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toInvoice(row) : null;
}

/** The invoice (or the attempt at one) of a payment. */
export async function findInvoiceOfPurchase(
  db: Db,
  purchase: Pick<Purchase, "kind" | "ref">,
): Promise<Invoice | null> {
  const row = await db
    .selectFrom("invoices")
    .selectAll()
    .where("payment_key", "=", paymentKey(purchase))
    .executeTakeFirst();
  return row ? toInvoice(row) : null;
}

/** The issued invoices of these purchases, by payment key (the signed-in list). */
export async function invoicesOfPurchases(
  db: Db,
  purchases: ReadonlyArray<Pick<Purchase, "kind" | "ref">>,
): Promise<Map<string, Invoice>> {
  if (purchases.length === 0) return new Map();
  const rows = await db
    .selectFrom("invoices")
    .selectAll()
    .where("payment_key", "in", purchases.map(paymentKey))
    .where("state", "in", ["issued", "cancelled"])
    .execute();
  return new Map(rows.map((row) => [row.payment_key, toInvoice(row)]));
}

/** The invoice with this UUID or folio (the operator types either). */
export async function findInvoiceByUuidOrFolio(db: Db, key: string): Promise<Invoice | null> {
  const wanted = key.trim().toUpperCase();
  const row = await db
    .selectFrom("invoices")
    .selectAll()
    .where((eb) => eb.or([eb("uuid", "=", wanted), eb("folio", "=", wanted)]))
    .executeTakeFirst();
  return row ? toInvoice(row) : null;
}

export interface InvoiceClaim {
  invoice: Invoice;
  token: string;
  /** `<invoice id>-<attempt>`: the PAC's idempotency key for this request. */
  idempotencyKey: string;
  /** A request under this key was made before and its answer never came. */
  resuming: boolean;
}

export type ClaimResult =
  | { kind: "claimed"; claim: InvoiceClaim }
  /** Already issued (or cancelled): the same invoice, whatever data came with this request. */
  | { kind: "issued"; invoice: Invoice }
  /** Another request holds the claim and is asking the PAC right now. */
  | { kind: "busy"; invoice: Invoice };

export interface ClaimInput {
  purchase: Purchase;
  fiscal: FiscalData & { rfc: string };
  formaPago: FormaPago;
  accountSub: string | null;
}

function requestColumns(input: ClaimInput) {
  return {
    receiver_rfc: input.fiscal.rfc,
    receiver_name: input.fiscal.name,
    receiver_regimen: input.fiscal.regimen,
    receiver_postal_code: input.fiscal.postalCode,
    uso: input.fiscal.uso,
    email: input.fiscal.email,
    forma_pago: input.formaPago,
    account_sub: input.accountSub,
  };
}

/**
 * Claims the right to ask the PAC for this payment's invoice, creating its row the first time.
 * Answers the claim, the invoice already issued, or that another request holds the claim.
 */
export async function claimInvoice(
  db: Db,
  input: ClaimInput,
  now = new Date(),
): Promise<ClaimResult> {
  const key = paymentKey(input.purchase);
  const at = now.toISOString();
  const token = randomBytes(16).toString("base64url");
  for (let round = 0; round < 3; round += 1) {
    const existing = await db
      .selectFrom("invoices")
      .selectAll()
      .where("payment_key", "=", key)
      .executeTakeFirst();
    if (!existing) {
      const id = randomBytes(12).toString("base64url");
      try {
        const inserted = await db.transaction().execute(async (trx) => {
          const folio = await nextFolio(trx, INVOICE_SERIES, now);
          const result = await trx
            .insertInto("invoices")
            .values({
              id,
              payment_key: key,
              purpose: input.purchase.kind,
              reference: input.purchase.ref,
              purchase_folio: input.purchase.folio,
              folio,
              state: "stamping",
              attempt: 1,
              attempt_refused: 0,
              claim_token: token,
              claimed_at: at,
              ...requestColumns(input),
              last_refusal: null,
              provider: null,
              provider_invoice_id: null,
              uuid: null,
              subtotal: null,
              total_tax: null,
              total: null,
              cfdi: null,
              stamp: null,
              xml: null,
              issued_at: null,
              cancellation_status: null,
              cancel_motive: null,
              substitute_uuid: null,
              cancelled_at: null,
              created_at: at,
              updated_at: at,
            })
            .onConflict((conflict) => conflict.column("payment_key").doNothing())
            .executeTakeFirst();
          return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
        });
        if (inserted) {
          const invoice = (await findInvoice(db, id))!;
          return {
            kind: "claimed",
            claim: { invoice, token, idempotencyKey: `${id}-1`, resuming: false },
          };
        }
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      continue;
    }
    const invoice = toInvoice(existing);
    if (hasBeenIssued(invoice)) return { kind: "issued", invoice };
    const fresh =
      existing.state === "stamping" &&
      existing.claimed_at !== null &&
      now.getTime() - Date.parse(existing.claimed_at) < STALE_CLAIM_MS;
    if (fresh) return { kind: "busy", invoice };
    // Waiting (refused, or the PAC out of reach), or a claim whose holder died: take it over.
    // After a refusal the PAC stamped nothing: a new attempt, a new key; otherwise the same key.
    const attempt = existing.attempt + (existing.attempt_refused ? 1 : 0);
    const taken = await db
      .updateTable("invoices")
      .set({
        state: "stamping",
        attempt,
        attempt_refused: 0,
        claim_token: token,
        claimed_at: at,
        ...requestColumns(input),
        updated_at: at,
      })
      .where("id", "=", existing.id)
      .where("state", "=", existing.state)
      .where("attempt", "=", existing.attempt)
      .where((eb) =>
        existing.claim_token === null
          ? eb("claim_token", "is", null)
          : eb("claim_token", "=", existing.claim_token),
      )
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      return {
        kind: "claimed",
        claim: {
          invoice: (await findInvoice(db, existing.id))!,
          token,
          idempotencyKey: `${existing.id}-${attempt}`,
          // The same key as a request whose answer never came (PAC out of reach, a dead claim).
          resuming: existing.attempt_refused === 0,
        },
      };
    }
  }
  const invoice = await findInvoiceOfPurchase(db, input.purchase);
  if (invoice && hasBeenIssued(invoice)) return { kind: "issued", invoice };
  if (invoice) return { kind: "busy", invoice };
  throw new Error("invoice claim found no row after inserting it");
}

/**
 * The PAC's invoice, recorded under the claim with its e-mail (XML and PDF attached) queued and,
 * for a signed-in customer, the fiscal data saved for next time, in one transaction. False when
 * the claim was taken over meanwhile (the other request records the same invoice).
 */
export async function recordIssued(
  db: Db,
  claim: InvoiceClaim,
  issued: { cfdi: Cfdi; stamped: StampedInvoice; saveProfileFor: string | null },
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString();
  const { cfdi, stamped } = issued;
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("invoices")
      .set({
        state: "issued",
        claim_token: null,
        claimed_at: null,
        last_refusal: null,
        provider: stamped.provider,
        provider_invoice_id: stamped.providerInvoiceId,
        uuid: stamped.uuid,
        subtotal: cfdi.subTotal,
        total_tax: cfdi.impuestos.totalImpuestosTrasladados,
        total: stamped.total,
        cfdi: JSON.stringify(cfdi),
        stamp: JSON.stringify(stamped.stamp),
        xml: stamped.xml,
        issued_at: stamped.stamp.stampedAt,
        updated_at: at,
      })
      .where("id", "=", claim.invoice.id)
      .where("claim_token", "=", claim.token)
      .where("state", "=", "stamping")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    const email = claim.invoice.email;
    if (email) {
      await enqueueMail(trx, {
        dedupeKey: `invoice-issued:${claim.invoice.id}`,
        to: email,
        template: "invoice_issued",
        data: { invoiceId: claim.invoice.id },
      });
    }
    if (issued.saveProfileFor && claim.invoice.receiver) {
      const { receiver } = claim.invoice;
      const profile = {
        rfc: receiver.rfc,
        name: receiver.name,
        regimen: receiver.regimen,
        postal_code: receiver.postalCode,
        uso: receiver.uso,
        email: email ?? "",
        updated_at: at,
      };
      await trx
        .insertInto("invoice_profiles")
        .values({ account_sub: issued.saveProfileFor, ...profile })
        .onConflict((conflict) => conflict.column("account_sub").doUpdateSet(profile))
        .execute();
    }
    return true;
  });
}

/**
 * The PAC refused (`refusalCode`: nothing stamped, the next try is a new request) or could not
 * be reached (null: the next try asks again under the same key). The claim is released.
 */
export async function releaseClaim(
  db: Db,
  claim: InvoiceClaim,
  refusalCode: string | null,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable("invoices")
    .set({
      state: "waiting",
      claim_token: null,
      claimed_at: null,
      attempt_refused: refusalCode ? 1 : 0,
      // "none": the last request had no answer (its key is asked again, looking for it first).
      last_refusal: refusalCode ?? "none",
      updated_at: now.toISOString(),
    })
    .where("id", "=", claim.invoice.id)
    .where("claim_token", "=", claim.token)
    .execute();
}

/** Waits for another request's claim to end: the invoice it issued, or null when it did not. */
export async function awaitIssued(
  db: Db,
  purchase: Pick<Purchase, "kind" | "ref">,
  { timeoutMs = 8_000, intervalMs = 200 } = {},
): Promise<Invoice | null> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const invoice = await findInvoiceOfPurchase(db, purchase);
    if (invoice && hasBeenIssued(invoice)) return invoice;
    if (invoice && invoice.state !== "stamping") return null;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return null;
}

export interface InvoiceProfile {
  rfc: string;
  name: string;
  regimen: string;
  postalCode: string;
  uso: string;
  email: string;
}

export async function findInvoiceProfile(
  db: Db,
  accountSub: string,
): Promise<InvoiceProfile | null> {
  const row = await db
    .selectFrom("invoice_profiles")
    .selectAll()
    .where("account_sub", "=", accountSub)
    .executeTakeFirst();
  return row
    ? {
        rfc: row.rfc,
        name: row.name,
        regimen: row.regimen,
        postalCode: row.postal_code,
        uso: row.uso,
        email: row.email,
      }
    : null;
}

export interface CancelInput {
  motive: CancellationMotive;
  substituteUuid: string | null;
  reason: string | null;
  actor: string;
}

export type CancelResult =
  | { ok: true; invoice: Invoice; status: "accepted" | "pending" }
  | Refusal
  | { ok: false; code: "provider"; message: string };

const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/**
 * The operator cancels an issued invoice with one of SAT's reasons (01 needs the UUID of the
 * invoice that replaces it): the PAC is asked first, then the row says so (cancelled, or a
 * cancellation pending the receiver's acceptance) with its audit row, in one transaction.
 */
export async function cancelInvoice(
  db: Db,
  provider: InvoiceProvider,
  key: string,
  input: CancelInput,
  now = new Date(),
): Promise<CancelResult> {
  const invoice = await findInvoiceByUuidOrFolio(db, key);
  if (!invoice) return refuse("not_found", `No existe ninguna factura con UUID o folio ${key}.`);
  if (!Object.hasOwn(CANCELLATION_MOTIVES, input.motive)) {
    return refuse(
      "invalid_input",
      "--motivo: usa 01, 02, 03 o 04 (motivos de cancelación del SAT).",
    );
  }
  const substitute = input.substituteUuid?.trim().toUpperCase() || null;
  if (input.motive === "01" && !substitute) {
    return refuse(
      "invalid_input",
      "El motivo 01 necesita --sustituye <UUID de la factura que reemplaza a esta>.",
    );
  }
  if (input.motive !== "01" && substitute) {
    return refuse("invalid_input", "--sustituye solo va con el motivo 01.");
  }
  if (substitute && !UUID.test(substitute)) {
    return refuse("invalid_input", `--sustituye: "${substitute}" no es un UUID.`);
  }
  if (invoice.state === "cancelled") {
    return refuse("wrong_status", `La factura ${invoice.folio} ya está cancelada.`);
  }
  if (invoice.state !== "issued" || !invoice.providerInvoiceId) {
    return refuse(
      "wrong_status",
      `La factura ${invoice.folio} no se ha emitido: no hay nada que cancelar.`,
    );
  }
  if (invoice.provider !== provider.name) {
    return refuse(
      "wrong_status",
      `La factura ${invoice.folio} la timbró ${invoice.provider}; el servidor usa ${provider.name}: cancélala con la configuración con que se emitió.`,
    );
  }
  let outcome;
  try {
    outcome = await provider.cancel(invoice.providerInvoiceId, input.motive, substitute);
  } catch (error) {
    if (isInvoiceRefused(error)) {
      return {
        ok: false,
        code: "provider",
        message: `El PAC no canceló la factura ${invoice.folio} (${error.refusal.code})${error.refusal.message ? `: ${error.refusal.message}` : "."}`,
      };
    }
    if (isInvoiceProviderUnavailable(error)) {
      return {
        ok: false,
        code: "provider",
        message: `El PAC no respondió (${error.reason}); no se canceló nada. Inténtalo de nuevo.`,
      };
    }
    throw error;
  }
  const at = now.toISOString();
  const toState: InvoiceState = outcome.status === "accepted" ? "cancelled" : "issued";
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("invoices")
      .set({
        state: toState,
        cancellation_status: outcome.status,
        cancel_motive: input.motive,
        substitute_uuid: substitute,
        cancelled_at: outcome.status === "accepted" ? at : null,
        updated_at: at,
      })
      .where("id", "=", invoice.id)
      .where("state", "=", "issued")
      .execute();
    await recordChange(
      trx,
      {
        subject: "invoice",
        id: invoice.id,
        fromStatus: "issued",
        toStatus: outcome.status === "accepted" ? "cancelled" : "cancelling",
        detail: { motive: input.motive, ...(substitute ? { substituteUuid: substitute } : {}) },
        reason: input.reason,
        actor: input.actor,
      },
      at,
    );
  });
  return { ok: true, invoice: (await findInvoice(db, invoice.id))!, status: outcome.status };
}

export interface InvoiceListFilter {
  fromInstant?: string;
  toInstant?: string;
  state?: "issued" | "cancelled" | "waiting";
}

/** The operator's list: issued (or cancelled, or not issued yet) invoices, newest first. */
export async function listInvoices(db: Db, filter: InvoiceListFilter): Promise<Invoice[]> {
  let query = db.selectFrom("invoices").selectAll();
  if (filter.state === "waiting") query = query.where("state", "in", ["waiting", "stamping"]);
  else if (filter.state) query = query.where("state", "=", filter.state);
  if (filter.fromInstant) query = query.where("created_at", ">=", filter.fromInstant);
  if (filter.toInstant) query = query.where("created_at", "<", filter.toInstant);
  const rows = await query.orderBy("created_at", "desc").orderBy("folio", "desc").execute();
  return rows.map(toInvoice);
}
