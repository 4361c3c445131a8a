import * as z from "zod";
import { iccidDigits, isWellFormedIccid } from "./provisioning";

/**
 * ES2+ HandleDownloadProgressInfo (GSMA SGP.22 §5.3.5, JSON binding §6.5): the SM-DP+ tells the
 * operator how far a profile's download got. Read from the function's published JSON schema
 * (as ostelco-core's es2plus4dropwizard carries it); not from a real SM-DP+ (decision 0093).
 */

/** The path SGP.22's binding gives the function, on the operator's side. */
export const HANDLE_DOWNLOAD_PROGRESS_INFO_PATH = "/gsma/rsp2/es2plus/handleDownloadProgressInfo";

/**
 * The steps SGP.22 numbers. Only the BPP installation means a phone has the profile; the others
 * (and the later ones some SM-DP+s forward from the eUICC: enable, disable, delete, whose numbers
 * vary) are taken note of and change nothing.
 */
export const NOTIFICATION_POINTS = {
  eligibilityAndRetryLimitCheck: 1,
  confirmationFailure: 2,
  bppDownload: 3,
  bppInstallation: 4,
} as const;

const EXECUTION_STATUSES = [
  "Executed-Success",
  "Executed-WithWarning",
  "Failed",
  "Expired",
] as const;

/** An ICCID as ES2+ writes it (19 digits may be padded with "F"), kept as its digits. */
const es2plusIccid = z
  .string()
  .regex(/^\d{19}[\dFf]?$/)
  .transform(iccidDigits)
  .refine(isWellFormedIccid);

const text = z.string().max(512);

export const downloadProgressSchema = z.object({
  header: z.object({
    functionRequesterIdentifier: z.string().min(1).max(256),
    functionCallIdentifier: z.string().min(1).max(256),
  }),
  /** The phone's eUICC; never stored nor logged (it names a device, and so a person). */
  eid: z.string().max(64).optional(),
  iccid: es2plusIccid,
  profileType: z.string().min(1).max(256),
  timestamp: z.string().min(1).max(64),
  /** An integer in the schema; a digit string (seen in a vendor's variant) reads the same. */
  notificationPointId: z.union([
    z.number().int().min(0).max(9999),
    z
      .string()
      .regex(/^\d{1,4}$/)
      .transform(Number),
  ]),
  notificationPointStatus: z.object({
    status: z.enum(EXECUTION_STATUSES),
    statusCodeData: z
      .object({
        subjectCode: text.optional(),
        reasonCode: text.optional(),
        subjectIdentifier: text.optional(),
        message: text.optional(),
      })
      .optional(),
  }),
  /** Base64 of the eUICC's ProfileInstallationResult; not read. */
  resultData: z.string().max(16_384).optional(),
});

export type DownloadProgress = z.infer<typeof downloadProgressSchema>;

/**
 * What a notification means to the store: `installed` when a phone installed the profile (the
 * BPP installation executed; a warning is still an installation, as ES2+'s status says), `noted`
 * for every other step and for failures.
 */
export function downloadProgressOutcome(notification: DownloadProgress): "installed" | "noted" {
  const executed = notification.notificationPointStatus.status.startsWith("Executed-");
  return notification.notificationPointId === NOTIFICATION_POINTS.bppInstallation && executed
    ? "installed"
    : "noted";
}

/** "8952 •••• 0071": enough to find it among the store's, not enough to read it out. */
export function maskedIccid(iccid: string): string {
  return `${iccid.slice(0, 4)} •••• ${iccid.slice(-4)}`;
}

/**
 * An ES2+ function execution status of `Failed` (SGP.22 §6.5.1.4). The codes follow the common
 * status codes of GSMA's ES2 family (subject 1.1 "function requester", reasons 1.2 "not
 * allowed", 2.1 "invalid", 4.2 "execution error"); not checked against a real SM-DP+.
 */
export function es2plusFailure(
  code: "unauthorized" | "malformed" | "unavailable",
  message: string,
) {
  const reasonCode = { unauthorized: "1.2", malformed: "2.1", unavailable: "4.2" }[code];
  return {
    header: {
      functionExecutionStatus: {
        status: "Failed",
        statusCodeData: { subjectCode: "1.1", reasonCode, message },
      },
    },
  };
}
