import { randomBytes } from "node:crypto";
import { nowIso, type Db } from "~/db/db.server";

/**
 * The mail queue (a transactional outbox), below the capabilities: checkout, payments, top-ups and
 * portability queue their e-mails here, and app/mail, which imports them to compose, sends them.
 * No capability imports app/mail (decision 0085).
 */

/**
 * The e-mails the store sends. Each is enqueued with the ids it is about; the mailer reads the
 * rest from the database when it sends (app/mail), so a retried e-mail tells the current truth.
 */
/** A change to how an account signs in, told to its address (decision 0134). */
export const ACCOUNT_SECURITY_CHANGES = [
  "password_reset",
  "signed_out_everywhere",
  "passkey_added",
  "mfa_disabled",
  "mfa_changed",
  "device_remembered",
] as const;
export type AccountSecurityChange = (typeof ACCOUNT_SECURITY_CHANGES)[number];

export interface MailData {
  /** A new order: its folio, lines, SIM type, and how to pay or find it again. */
  order_received: { orderRef: string };
  /** The cash voucher or SPEI transfer issued for an order or a top-up. */
  payment_voucher: { purpose: "order" | "topup"; reference: string; paymentId: string };
  order_paid: { orderRef: string };
  /** A one-time link to a paid eSIM order's codes (issued when the e-mail is composed, if not yet). */
  esim_activation: { orderRef: string };
  /** A one-time link to the order, asked for at /pedido with its folio and e-mail. */
  order_link: { orderRef: string };
  order_shipped: { orderRef: string };
  topup_receipt: { topupId: string };
  portability_received: { requestId: string };
  /** Scheduled (with its date), completed or rejected (with its reason). */
  portability_status: { requestId: string; status: "in_progress" | "completed" | "rejected" };
  /**
   * A line of the account running out (little data, or its vigencia ending), once per package:
   * `packageKey` names the package (app/line/line-view.ts noticePackageKey).
   */
  line_running_out: { number: string; accountSub: string; packageKey: string };
  /** A line registered to its holder online: its folio, to the address the holder gave. */
  line_registered: { registrationId: string };
  /**
   * A line registered to a person, to the contact of one of their earlier registrations, with
   * the "no fui yo" link's token (decision 0136).
   */
  registration_notice: { registrationId: string; token: string };
  /** An automatic top-up's charge coming (a day before the package ends, or just before). */
  auto_topup_notice: { chargeId: string };
  /** An automatic top-up's charge declined: tried again later, or (`stopped`) switched off. */
  auto_topup_declined: { chargeId: string; attempt: number; stopped: boolean };
  /** The bank asked to authenticate an automatic charge: a link to pay the top-up instead. */
  auto_topup_action_required: { chargeId: string };
  /** The month's cap of automatic charges reached: this period was not charged. */
  auto_topup_cap: { autoTopupId: string; month: string };
  /** A CFDI issued for a paid order or top-up: its XML and PDF attached, to the address given. */
  invoice_issued: { invoiceId: string };
  /** A change to how the account signs in, and when: with a link to review the account. */
  account_security: { change: AccountSecurityChange; at: string };
}

export type MailTemplate = keyof MailData;

export interface EnqueueMail<T extends MailTemplate> {
  /** One e-mail per event, e.g. `order-paid:<order id>`: enqueuing the same event again is a no-op. */
  dedupeKey: string;
  to: string;
  template: T;
  data: MailData[T];
}

/**
 * Puts an e-mail in the queue, in the caller's transaction when it has one, so that the e-mail
 * exists exactly when what it tells does. Sending happens later, with retries. Answers whether
 * it was new (false: this event's e-mail was already queued).
 */
export async function enqueueMail<T extends MailTemplate>(
  db: Db,
  mail: EnqueueMail<T>,
): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .insertInto("mail_queue")
    .values({
      id: randomBytes(12).toString("base64url"),
      dedupe_key: mail.dedupeKey,
      to_address: mail.to,
      template: mail.template,
      data: JSON.stringify(mail.data),
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      created_at: now,
      sent_at: null,
    })
    .onConflict((conflict) => conflict.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
