import { measureSms, type MeasuredSms } from "./encoding";

/**
 * Sending an SMS: codes to a number, and later notices. The embedded default captures each SMS
 * in a development outbox; the real adapter speaks SMPP 3.4 to the operator's SMSC. Decision
 * record 0089.
 *
 * Plain TypeScript: the types and the errors are shared by the server and the server build.
 */

export interface SmsMessage {
  /** A Mexican number, 10 digits. */
  to: string;
  /** At most one SMS long (see measureSms); never logged. */
  text: string;
  /** Which message this is ("line_code", …): the only thing about it that is logged. */
  template: string;
}

export interface SmsSender {
  readonly name: "outbox" | "smpp";
  /**
   * Resolves once the SMS is accepted for delivery (by the SMSC, or written to the outbox).
   * Rejects with an SmsRefused when this message can never go as it is, and with an
   * SmsUnavailable when the SMSC cannot take it now.
   */
  send(message: SmsMessage): Promise<void>;
  /** Lets go of what the sender holds (the SMPP session). */
  close?(): Promise<void>;
}

export type SmsUnavailableReason =
  /** No connection to the SMSC, or it was lost before the answer. */
  | "connection"
  /** The SMSC refused our credentials or our bind. */
  | "bind-refused"
  /** The SMSC did not answer in time. */
  | "timeout"
  /** The SMSC asks us to slow down (ESME_RTHROTTLED, ESME_RMSGQFUL). */
  | "throttled"
  /** The SMSC answered with another error. */
  | "smsc-error";

/** The SMSC cannot take the SMS now: try again later. The message never names the number. */
export class SmsUnavailable extends Error {
  readonly reason: SmsUnavailableReason;
  /** The SMPP command_status the SMSC answered, when it answered one. */
  readonly commandStatus: number | null;

  constructor(
    message: string,
    details: { reason: SmsUnavailableReason; commandStatus?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = "SmsUnavailable";
    this.reason = details.reason;
    this.commandStatus = details.commandStatus ?? null;
  }
}

export type SmsRefusalReason =
  /** `to` is not a 10-digit number. */
  | "invalid-number"
  /** The text does not fit one SMS. */
  | "too-long"
  /** The SMSC does not take this destination (ESME_RINVDSTADR). */
  | "invalid-destination";

/** This SMS can never go as it is: trying again will not help. Never names the number or text. */
export class SmsRefused extends Error {
  readonly reason: SmsRefusalReason;
  readonly commandStatus: number | null;

  constructor(message: string, details: { reason: SmsRefusalReason; commandStatus?: number }) {
    super(message);
    this.name = "SmsRefused";
    this.reason = details.reason;
    this.commandStatus = details.commandStatus ?? null;
  }
}

/**
 * True for an SmsUnavailable. Not `instanceof`: server.ts and the server build are separate
 * bundles, each with its own copy of the class.
 */
export function isSmsUnavailable(error: unknown): error is SmsUnavailable {
  return error instanceof Error && error.name === "SmsUnavailable";
}

/** True for an SmsRefused (by name, as isSmsUnavailable). */
export function isSmsRefused(error: unknown): error is SmsRefused {
  return error instanceof Error && error.name === "SmsRefused";
}

const MEXICAN_NUMBER = /^\d{10}$/;

/**
 * The message as every sender sends it, with its text measured; refuses (SmsRefused) a number
 * that is not 10 digits and a text longer than one SMS, the same way whichever sender is
 * configured, so that the outbox catches in development what the SMSC would refuse.
 */
export function prepareSms(message: SmsMessage): MeasuredSms & { to: string; template: string } {
  if (typeof message.template !== "string" || message.template.length === 0) {
    throw new TypeError("An SMS needs a template name");
  }
  if (typeof message.to !== "string" || !MEXICAN_NUMBER.test(message.to)) {
    throw new SmsRefused("The number of an SMS must be 10 digits", { reason: "invalid-number" });
  }
  if (typeof message.text !== "string" || message.text.length === 0) {
    throw new TypeError("An SMS needs a text");
  }
  const measured = measureSms(message.text);
  if (!measured.fits) {
    throw new SmsRefused(
      `SMS "${message.template}" too long for one message: ${measured.length} of ${measured.limit} (${measured.encoding})`,
      { reason: "too-long" },
    );
  }
  return { ...measured, to: message.to, template: message.template };
}
