import { type DailyUsage, isLineNumber, type Line } from "./line";

/**
 * The operator's business support system (BSS), as the store uses it: it knows the lines, their
 * balances and usage, applies paid top-ups and activates new lines. Two implementations: the
 * simulator over the store's own database (the embedded default, ./simulator.server.ts) and
 * the TM Forum Open API adapter (./tmf.server.ts). Decision 0088.
 *
 * Every method fails with a BssUnavailable (try again later: nothing was decided) or a
 * BssRefused (the BSS said no: tell the customer or the operator); a TypeError is a caller's bug
 * (a number that is not ten digits, a date that is not YYYY-MM-DD).
 */
export interface Bss {
  readonly name: "simulator" | "tmf";
  /** The line, or null when the BSS does not know the number. */
  findLine(number: string): Promise<Line | null>;
  /** Usage by day, oldest first, one entry for every day [from, to] (YYYY-MM-DD, inclusive). */
  usageByDay(number: string, from: string, to: string): Promise<DailyUsage[]>;
  /**
   * Applies a paid top-up once: idempotent by topupId (a repeat answers the first result, even
   * when the first is still under way in a concurrent call). `offerId` is what the catalogue
   * says `amount` buys (~/line/line.ts topupOffer).
   */
  applyTopup(input: ApplyTopupInput): Promise<{ reference: string }>;
  /**
   * Activates a new line for a SIM (ICCID) with a plan: `number` for a port-in, else the BSS
   * assigns one. Idempotent by externalId.
   */
  activateLine(input: ActivateLineInput): Promise<{ number: string }>;
  /**
   * Tells the BSS whether the line has a registered holder now (issue 27, decision 0100): a
   * folio (VIN-YYYY-NNNNNN) lifts "unregistered" to "active" and changes no other status; null
   * makes an "active" line "unregistered" (emergency numbers and the operator only). Idempotent:
   * the same call again changes nothing.
   */
  recordRegistration(input: RecordRegistrationInput): Promise<void>;
}

export interface RecordRegistrationInput {
  number: string;
  /** The line's current registration's folio; null: the line has none. */
  folio: string | null;
}

export interface ApplyTopupInput {
  topupId: string;
  number: string;
  /** Whole pesos, IVA included. */
  amount: number;
  offerId: string;
}

export interface ActivateLineInput {
  /** Our reference for this activation (an order's SIM, a portability request). */
  externalId: string;
  iccid: string;
  /** A plan id of ~/catalog/plans.data.ts. */
  offerId: string;
  /** The ported number, for a port-in. */
  number?: string;
}

export type BssUnavailableReason =
  /** No connection, or it broke before the answer. */
  | "unreachable"
  /** No whole answer in time. */
  | "timeout"
  /** The credentials were not accepted (OAuth error, 401 after a new token, 403). */
  | "unauthorized"
  /** An HTTP status that means "not now": 5xx, 429, 408, or one the adapter cannot read. */
  | "http-status"
  /** An answer that does not read as the documented one. */
  | "malformed"
  /** Still in progress at the BSS after the adapter stopped waiting (a product order). */
  | "pending";

/**
 * The BSS could not answer now: unreachable, slow, out of order, or answering what cannot be
 * read. Nothing is known to have changed: retry later (a top-up stays queued); a page says
 * "no pudimos consultar tu línea", never a 500. The message names the call, never a secret.
 */
export class BssUnavailable extends Error {
  readonly reason: BssUnavailableReason;
  readonly httpStatus: number | null;

  constructor(
    message: string,
    details: { reason: BssUnavailableReason; httpStatus?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = "BssUnavailable";
    this.reason = details.reason;
    this.httpStatus = details.httpStatus ?? null;
  }
}

export type BssRefusalReason =
  /** The BSS does not know the number. */
  | "unknown-number"
  /** The line cannot take this now: suspended (with or without a registration), being ported, or dada de baja. */
  | "line-not-active"
  /** Not a valid ICCID, or one the BSS does not know. */
  | "invalid-iccid"
  /** The SIM already serves a line. */
  | "iccid-in-use"
  /** The ported number already is a line. */
  | "number-in-use"
  /** An amount or offer that is not on sale, or that do not go together. */
  | "unknown-offer"
  /** The same top-up or activation reference came before with something else. */
  | "reference-reused"
  /** Anything else the BSS answered no to (a TMF 4xx, a product order rejected or failed). */
  | "rejected";

/** What a TMF API said in its Error body, for the operator's logs. */
export interface BssErrorDetail {
  code: string | null;
  reason: string | null;
  message: string | null;
}

/**
 * The BSS answered no. Retrying the same request gets the same answer: the customer is told in
 * Spanish (by `reason`), a queued top-up stops and waits for the operator.
 */
export class BssRefused extends Error {
  readonly reason: BssRefusalReason;
  readonly httpStatus: number | null;
  readonly detail: BssErrorDetail | null;

  constructor(
    message: string,
    details: { reason: BssRefusalReason; httpStatus?: number; detail?: BssErrorDetail | null },
  ) {
    super(message);
    this.name = "BssRefused";
    this.reason = details.reason;
    this.httpStatus = details.httpStatus ?? null;
    this.detail = details.detail ?? null;
  }
}

/** By name, not `instanceof`: server.ts and the server build each bundle their own class. */
export function isBssUnavailable(error: unknown): error is BssUnavailable {
  return error instanceof Error && error.name === "BssUnavailable";
}

/** By name, not `instanceof`: server.ts and the server build each bundle their own class. */
export function isBssRefused(error: unknown): error is BssRefused {
  return error instanceof Error && error.name === "BssRefused";
}

/** Throws a TypeError for a number that is not ten digits: the caller validates first. */
export function assertLineNumber(number: unknown): asserts number is string {
  if (!isLineNumber(number)) throw new TypeError("a line number is ten digits");
}

/** Throws a TypeError for a reference (top-up id, external id) that is empty or too long. */
export function assertReference(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 200) {
    throw new TypeError(`${what} must be a non-empty string of at most 200 characters`);
  }
}
