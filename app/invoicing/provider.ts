import type { Cfdi, CfdiItem } from "./cfdi";
import type { CancellationMotive } from "./sat-catalogs";

/**
 * Who stamps the store's CFDI (a PAC, proveedor autorizado de certificación), behind one interface
 * (decision 0118): the embedded sandbox, which builds the same CFDI without a fiscal seal, or
 * Facturapi through its official SDK. The store builds the CFDI (app/invoicing/cfdi.ts); the
 * provider seals and stamps it, or says why not.
 */

export interface StampRequest {
  cfdi: Cfdi;
  /** What was sold, as the CFDI was built from it (a PAC that computes the taxes itself gets these). */
  items: CfdiItem[];
  /**
   * The same for every try of one request to the PAC (`<invoice id>-<attempt>`): a try whose
   * answer was lost is asked again under it, and the PAC stamps it at most once.
   */
  idempotencyKey: string;
  /** A try of this key was made before and its outcome is unknown. */
  resuming: boolean;
}

/** The parts of the seal the printed representation shows. */
export interface StampDetails {
  /** The sandbox's: no PAC, no seal, no validity. */
  sandbox: boolean;
  /** The issuer's seal (Sello, "sello digital del CFDI"); empty for the sandbox. */
  selloCfd: string;
  /** The SAT's seal of the Timbre Fiscal Digital; empty for the sandbox. */
  selloSat: string;
  /** The serial number of SAT's certificate; empty for the sandbox. */
  noCertificadoSat: string;
  /** The issuer's CSD serial number. */
  noCertificado: string;
  /** FechaTimbrado (ISO-8601). */
  stampedAt: string;
  /** The PAC's RFC (RfcProvCertif); empty for the sandbox. */
  rfcProvCertif: string;
}

export interface StampedInvoice {
  provider: string;
  /** The provider's id of the invoice (for downloads and cancellation). */
  providerInvoiceId: string;
  /** The folio fiscal (UUID of the Timbre Fiscal Digital; the sandbox's own). */
  uuid: string;
  xml: string;
  stamp: StampDetails;
  /** The total the PAC stamped, to compare with the store's (they must agree). */
  total: string;
}

/** The form's fields a refusal can concern; null: the form as a whole. */
export type RefusedField = "rfc" | "nombre" | "regimen" | "codigo_postal" | "uso" | null;

/**
 * Why the PAC refused, as the customer is told it (a key of invoicing:refusals): the RFC is not
 * registered, the name or the código postal does not match it, its régimen does not, the use is
 * not allowed, or anything else (`other`, with the PAC's own words when they are Spanish).
 */
export type RefusalReason =
  | "tax_id_not_found"
  | "legal_name_mismatch"
  | "tax_address_zip_mismatch"
  | "tax_system_not_allowed_for_tax_id"
  | "use_not_allowed"
  | "other";

export interface PacRefusal {
  reason: RefusalReason;
  field: RefusedField;
  /** The PAC's or SAT's code, for the log and the record. */
  code: string;
  /** The PAC's message when it is `other`: shown escaped and cut, never logged. */
  message: string | null;
}

/** Where each reason is shown. */
export const REFUSAL_FIELDS: Record<RefusalReason, RefusedField> = {
  tax_id_not_found: "rfc",
  legal_name_mismatch: "nombre",
  tax_address_zip_mismatch: "codigo_postal",
  tax_system_not_allowed_for_tax_id: "regimen",
  use_not_allowed: "uso",
  other: null,
};

export type CancellationOutcome =
  /** The SAT cancelled it. */
  | { status: "accepted" }
  /** The SAT waits for the receiver's acceptance (or is still checking). */
  | { status: "pending" };

export interface InvoiceProvider {
  /** "sandbox" or "facturapi": recorded with each invoice. */
  readonly name: string;
  /** Its invoices have no fiscal validity (the sandbox). */
  readonly sandbox: boolean;
  /** Rejects with InvoiceRefused (the PAC said no) or InvoiceProviderUnavailable. */
  stamp(request: StampRequest): Promise<StampedInvoice>;
  /** 01 needs the UUID of the invoice that replaces this one. */
  cancel(
    providerInvoiceId: string,
    motive: CancellationMotive,
    substituteUuid: string | null,
  ): Promise<CancellationOutcome>;
}

/** The PAC (or SAT through it) refused the invoice: nothing was stamped. */
export class InvoiceRefused extends Error {
  constructor(readonly refusal: PacRefusal) {
    super(`the PAC refused the invoice (${refusal.code})`);
    this.name = "InvoiceRefused";
  }
}

/** The PAC could not be reached, or answered with its own failure: it may be tried again. */
export class InvoiceProviderUnavailable extends Error {
  constructor(
    readonly reason: string,
    cause?: unknown,
  ) {
    super(`the invoicing provider could not be reached (${reason})`, { cause });
    this.name = "InvoiceProviderUnavailable";
  }
}

/** Not `instanceof`: server.ts and the server build are separate bundles (as for payments). */
export function isInvoiceRefused(error: unknown): error is InvoiceRefused {
  return error instanceof Error && error.name === "InvoiceRefused";
}

export function isInvoiceProviderUnavailable(error: unknown): error is InvoiceProviderUnavailable {
  return error instanceof Error && error.name === "InvoiceProviderUnavailable";
}
