import { passesLuhn } from "~/lib/luhn";

/**
 * eSIM provisioning: for each eSIM of a paid order, the store asks a provisioner for a profile
 * and shows the customer its activation code as a QR code. The embedded default is the sandbox
 * provisioner (well-formed codes, marked as test codes, that no phone can download); the real
 * one speaks GSMA SGP.22 ES2+ to the operator's SM-DP+.
 *
 * Plain TypeScript: the types, the activation code parser and the error are shared by the
 * server and the server build.
 */

/** One eSIM profile, reserved and released for download. */
export interface EsimActivation {
  /** What the QR code holds: "LPA:1$<SM-DP+ address>$<matching ID>" (SGP.22 §4.1). */
  activationCode: string;
  /** Where the phone downloads the profile from (an FQDN, no scheme). */
  smdpAddress: string;
  /** The token that picks this profile at the SM-DP+: 0-9, A-Z and "-". */
  matchingId: string;
  /** 19 or 20 digits, Luhn check digit last; a Mexican issuer's start with 8952. */
  iccid: string;
  /** True for the sandbox's codes: they only look like real ones, and must be shown as tests. */
  testCode: boolean;
}

/**
 * One eSIM of one order: its position among the order's eSIMs (0, 1, …), and how many codes it
 * had before (0 for the first; each code the customer had replaced counts one).
 */
export interface EsimIssueRequest {
  orderRef: string;
  position: number;
  generation: number;
}

/** A code to withdraw: the profile it names must no longer be downloadable. */
export interface EsimCancelRequest {
  iccid: string;
  /** What this cancellation is of, for the SM-DP+'s call identifier. */
  orderRef: string;
  position: number;
  generation: number;
}

/**
 * - cancelled: the profile can no longer be downloaded; its code is dead;
 * - installed: too late, a phone already downloaded it (the code is spent, the eSIM in use).
 */
export type EsimCancelOutcome = "cancelled" | "installed";

export interface EsimProvisioner {
  /** Short name, for logs and configuration ("sandbox", "es2plus"). */
  readonly name: string;
  /**
   * Whether nothing real installs its codes, so that the store offers to simulate an
   * installation (the sandbox); a real SM-DP+ tells the store when a phone installed one.
   */
  readonly simulatesInstallation: boolean;
  /**
   * The activation of the eSIM at (orderRef, position, generation). Idempotent by those: the
   * sandbox answers the same twice; the real adapter sends them as the ES2+ call identifier.
   * Rejects with an EsimProvisioningUnavailable when the provider cannot issue it now.
   */
  issue(request: EsimIssueRequest): Promise<EsimActivation>;
  /**
   * Withdraws an issued code that nobody installed (the customer lost it): the profile is no
   * longer downloadable. Rejects with an EsimProvisioningUnavailable when the provider cannot
   * be asked now; answers "installed" when a phone got there first.
   */
  cancel(request: EsimCancelRequest): Promise<EsimCancelOutcome>;
}

/** The parts of an activation code (SGP.22 §4.1). */
export interface ParsedActivationCode {
  /** The SM-DP+ address as written in the code. */
  smdpAddress: string;
  matchingId: string;
  /** The SM-DP+ OID (dotted decimal), when the code names one. */
  smdpOid: string | null;
  /** The phone must ask the customer for a confirmation code sent separately. */
  confirmationCodeRequired: boolean;
}

/** The prefix a QR code adds in front of the activation code itself. */
export const LPA_PREFIX = "LPA:";

/** The only activation code format SGP.22 defines. */
const AC_FORMAT = "1";

/**
 * A practical bound on what is read at all, above the longest address (253) and matching ID
 * (255) together. Not a limit taken from the specification.
 */
const MAX_ACTIVATION_CODE_LENGTH = 1024;

/** SGP.22 §4.1.1: upper-case alphanumerics and "-" in any combination. */
const MATCHING_ID = /^[0-9A-Z-]+$/;
/** A practical bound (real matching IDs are a few dozen characters); not from the specification. */
const MAX_MATCHING_ID_LENGTH = 255;

/** An object identifier in dotted decimal notation. */
const OID = /^(0|[1-9]\d*)(\.(0|[1-9]\d*))+$/;

const DNS_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * True for a fully qualified domain name: at least two labels of letters, digits and inner
 * hyphens (1–63 characters each), at most 253 in all, a top-level label that is not all digits.
 * No scheme, port, path, trailing dot or IP address: the activation code names a host only.
 */
export function isSmdpAddress(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  const labels = value.split(".");
  if (labels.length < 2) return false;
  if (!labels.every((label) => DNS_LABEL.test(label))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]);
}

export function isMatchingId(value: string): boolean {
  return value.length <= MAX_MATCHING_ID_LENGTH && MATCHING_ID.test(value);
}

/** An ICCID (ITU-T E.118): 89 (telecommunications), 19 or 20 digits, Luhn check digit last. */
export function isWellFormedIccid(value: string): boolean {
  return /^89\d{17,18}$/.test(value) && passesLuhn(value);
}

/** ES2+ allows a 19-digit ICCID padded to 20 characters with "F"; the store keeps the digits. */
export function iccidDigits(value: string): string {
  return /^\d{19}[Ff]$/.test(value) ? value.slice(0, 19) : value;
}

/**
 * Reads an activation code, with or without the "LPA:" prefix of a QR code, following GSMA
 * SGP.22 §4.1: `1$<SM-DP+ address>$<matching ID>[$<SM-DP+ OID>[$<confirmation code required
 * flag>]]`, where the flag, when present, is "1" and an absent OID before it is left empty.
 *
 * Null for anything else. Deliberately stricter than the format where the store needs it to be:
 * the matching ID may not be empty (a code without one only works for a phone whose EID the
 * SM-DP+ already knows, and the store never knows it), and the fields later versions of SGP.22
 * append (eSIM CA public key indicator, delete notification for device change) are refused.
 * Nothing is trimmed or case-folded.
 */
export function parseActivationCode(code: string): ParsedActivationCode | null {
  if (typeof code !== "string" || code.length > MAX_ACTIVATION_CODE_LENGTH) return null;
  const body = code.startsWith(LPA_PREFIX) ? code.slice(LPA_PREFIX.length) : code;
  const fields = body.split("$");
  if (fields.length < 3 || fields.length > 5) return null;
  const [format, smdpAddress, matchingId, smdpOid = "", flag] = fields;
  if (format !== AC_FORMAT) return null;
  if (!isSmdpAddress(smdpAddress)) return null;
  if (!isMatchingId(matchingId)) return null;
  if (smdpOid !== "" && !OID.test(smdpOid)) return null;
  if (flag !== undefined && flag !== "1") return null;
  // "1$host$id$" (an empty last field) is no code anyone writes: refuse it.
  if (fields.length === 4 && smdpOid === "") return null;
  return {
    smdpAddress,
    matchingId,
    smdpOid: smdpOid === "" ? null : smdpOid,
    confirmationCodeRequired: flag === "1",
  };
}

/**
 * The activation code for a QR code: "LPA:1$<SM-DP+ address>$<matching ID>". Throws a TypeError
 * when a part would make a code that parseActivationCode refuses (a "$" smuggled into a field,
 * a lower-case matching ID, an address with a scheme).
 */
export function formatActivationCode(smdpAddress: string, matchingId: string): string {
  const code = `${LPA_PREFIX}${AC_FORMAT}$${smdpAddress}$${matchingId}`;
  const parsed = parseActivationCode(code);
  if (!parsed || parsed.smdpAddress !== smdpAddress || parsed.matchingId !== matchingId) {
    throw new TypeError("not a well-formed SM-DP+ address and matching ID");
  }
  return code;
}

/** Why a provisioner could not issue an eSIM. */
export type EsimUnavailableReason =
  /** No answer: refused connection, DNS failure, TLS failure. */
  | "unreachable"
  /** No complete answer within the configured time. */
  | "timeout"
  /** An HTTP status other than 200. */
  | "http-status"
  /** An answer that does not read as the documented one, or carries an invalid code or ICCID. */
  | "malformed"
  /** The SM-DP+ answered and refused (functionExecutionStatus "Failed", "Expired", …). */
  | "refused";

/** What an ES2+ function execution status says about a failure (SGP.22 §6.5.1.4). */
export interface EsimStatusCodeData {
  subjectCode: string | null;
  reasonCode: string | null;
  subjectIdentifier: string | null;
  message: string | null;
}

/**
 * A provisioner that could not issue an eSIM now: the order keeps its payment, and the
 * customer (or a later sweep) tries again. The message names the function and the failure,
 * never a matching ID.
 */
export class EsimProvisioningUnavailable extends Error {
  readonly reason: EsimUnavailableReason;
  /** The HTTP status, for "http-status". */
  readonly httpStatus: number | null;
  /** The SM-DP+'s status, for "refused". */
  readonly executionStatus: string | null;
  readonly statusCodeData: EsimStatusCodeData | null;

  constructor(
    message: string,
    details: {
      reason: EsimUnavailableReason;
      cause?: unknown;
      httpStatus?: number;
      executionStatus?: string;
      statusCodeData?: EsimStatusCodeData | null;
    },
  ) {
    super(message, { cause: details.cause });
    this.name = "EsimProvisioningUnavailable";
    this.reason = details.reason;
    this.httpStatus = details.httpStatus ?? null;
    this.executionStatus = details.executionStatus ?? null;
    this.statusCodeData = details.statusCodeData ?? null;
  }
}

/**
 * True for an EsimProvisioningUnavailable. Not `instanceof`: server.ts and the server build are
 * separate bundles, each with its own copy of the class.
 */
export function isEsimProvisioningUnavailable(
  error: unknown,
): error is EsimProvisioningUnavailable {
  return error instanceof Error && error.name === "EsimProvisioningUnavailable";
}

/** Throws a TypeError for a request no provisioner should be asked (a bug, not an outage). */
export function assertIssueRequest(request: EsimIssueRequest): void {
  if (typeof request.orderRef !== "string" || request.orderRef.length === 0) {
    throw new TypeError("orderRef must be a non-empty string");
  }
  if (!Number.isSafeInteger(request.position) || request.position < 0) {
    throw new TypeError("position must be a non-negative integer");
  }
  if (!Number.isSafeInteger(request.generation) || request.generation < 0) {
    throw new TypeError("generation must be a non-negative integer");
  }
}
