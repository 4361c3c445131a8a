import type { HolderKind, RegistrableHolder } from "./holder";

/**
 * The identity validation a line's registration asks for (issue 27, decision 0096): is this
 * CURP (RFC, passport) a real, living person's (company's), and is it the name given? Behind
 * this interface, chosen by ID_VALIDATION_PROVIDER: the store's sandbox
 * (./id-validation-sandbox.server.ts) or the operator's validation service over HTTP
 * (./id-validation-http.server.ts).
 */

/**
 * What the validation found. Only "valid" registers a line; the others are a failed attempt
 * (three in 24 hours end the online path).
 */
export type IdValidationOutcome =
  | "valid"
  | "not-found"
  | "name-mismatch"
  | "deceased"
  /** The identification's number or photo is not this person's (online registration). */
  | "document-mismatch"
  /** The selfie is not a live person's, or not the identification's face (online registration). */
  | "selfie-not-live";

export const ID_VALIDATION_OUTCOMES = [
  "valid",
  "not-found",
  "name-mismatch",
  "deceased",
  "document-mismatch",
  "selfie-not-live",
] as const satisfies readonly IdValidationOutcome[];

/** A photo sent to the validation: held in memory for the one call, never kept nor logged. */
export interface IdImage {
  /** Checked by its first bytes (identification-evidence.ts). */
  type: string;
  bytes: Uint8Array;
}

/**
 * What shows that whoever registers online holds the identification (decision 0136): its own
 * number, a photo of it and a selfie. The channels without a customer at a screen (checkout's
 * activation, a port-in, a store) send none.
 */
export interface IdEvidence {
  /** "ine": the CIC; "pasaporte": a Mexican passport; "pasaporte-extranjero": a foreign one. */
  document: "ine" | "pasaporte" | "pasaporte-extranjero";
  /** Normalised: the CIC's 9 digits, or the passport's number. */
  documentNumber: string;
  idPhoto: IdImage;
  selfie: IdImage;
}

export interface IdValidationRequest {
  kind: HolderKind;
  /**
   * The name as on the ID (persona física, persona extranjera), or the razón social (persona
   * moral).
   */
  fullName: string;
  /**
   * The person's CURP (persona física), the CURP temporal when a foreigner has one, or the legal
   * representative's CURP (persona moral); normalised and checked by `checkCurp` first.
   */
  curp: string | null;
  /** A persona moral's RFC, checked by `checkRfc` first. */
  rfc: string | null;
  /** A foreigner's passport number (upper case, without spaces). */
  passportNumber: string | null;
  /** A foreigner's nationality, an ISO 3166-1 alpha-2 code. */
  nationality: string | null;
  /** Online registration's proof that the registrant is the holder; null on the other channels. */
  evidence?: IdEvidence | null;
}

export interface IdValidationResult {
  outcome: IdValidationOutcome;
  /** The validation service's own reference of this check, kept with the registration. */
  reference: string | null;
  /** What the identity was checked against, e.g. "RENAPO", "SAT", "sandbox". */
  source: string;
}

export interface IdValidator {
  readonly name: "sandbox" | "http";
  /**
   * Resolves with what the service found, or rejects with IdValidationUnavailable when it
   * could not say (the line then stays "pendiente de registro"; not a failed attempt).
   */
  validate(request: IdValidationRequest): Promise<IdValidationResult>;
}

export type IdValidationUnavailableReason =
  /** No connection, or it broke before the answer. */
  | "unreachable"
  /** No whole answer in time. */
  | "timeout"
  /** The service did not take our key (401, 403): the operator must fix the configuration. */
  | "unauthorized"
  /** Any other status than 200: 5xx and 429 (not now), or a 4xx (our request is wrong). */
  | "http-status"
  /** An answer that does not read as the contract's (not JSON, an unknown resultado…). */
  | "malformed";

/**
 * The validation service could not say: unreachable, slow, out of order, refusing our request
 * or answering what cannot be read. Nothing is known about the person: the customer is not
 * counted a failed attempt, and a line activated meanwhile stays "pendiente de registro". The
 * message names the call and the status, never the person.
 */
export class IdValidationUnavailable extends Error {
  readonly reason: IdValidationUnavailableReason;
  readonly httpStatus: number | null;

  constructor(
    message: string,
    details: { reason: IdValidationUnavailableReason; httpStatus?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = "IdValidationUnavailable";
    this.reason = details.reason;
    this.httpStatus = details.httpStatus ?? null;
  }
}

/** By name, not `instanceof`: server.ts and the server build each bundle their own class. */
export function isIdValidationUnavailable(error: unknown): error is IdValidationUnavailable {
  return error instanceof Error && error.name === "IdValidationUnavailable";
}

/** What the identity validation is asked about a holder. */
export function validationRequestOf(holder: RegistrableHolder): IdValidationRequest {
  switch (holder.holder_kind) {
    case "fisica":
      return {
        kind: "fisica",
        fullName: holder.full_name,
        curp: holder.curp,
        rfc: null,
        passportNumber: null,
        nationality: null,
      };
    case "extranjera":
      return {
        kind: "extranjera",
        fullName: holder.full_name,
        curp: holder.curp ?? null,
        rfc: null,
        passportNumber: holder.passport_number,
        nationality: holder.nationality,
      };
    case "moral":
      return {
        kind: "moral",
        fullName: holder.business_name,
        curp: holder.representative_curp,
        rfc: holder.rfc,
        passportNumber: null,
        nationality: null,
      };
  }
}
