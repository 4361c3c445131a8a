import nodemailer from "nodemailer";
import { newOutboxId, readOutboxFiles, writeOutboxFile } from "~/lib/file-outbox.server";
import type { MailAttachment } from "./templates";

/** One e-mail as the mailer hands it to a transport. */
export interface OutgoingMail {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** The same for every attempt of one queued e-mail, so a receiver can spot a repeat. */
  messageId: string;
  /** Which queued e-mail this is; kept by the development outbox, never sent as a header. */
  meta: { mailId: string; template: string };
}

/** Where e-mails go: an SMTP server, or files for the development outbox. The mailer does not care. */
export interface MailTransport {
  readonly name: string;
  /** Resolves once the message is accepted; rejects (nodemailer's error) when it is not. */
  send(message: OutgoingMail): Promise<void>;
  /** Resolves when the server answers and accepts the credentials (for /readyz). */
  verify?(): Promise<void>;
  close?(): void;
}

function nodemailerMessage(message: OutgoingMail) {
  return {
    from: message.from,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    attachments: message.attachments?.map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      contentType: attachment.contentType,
      cid: attachment.cid,
      contentDisposition: attachment.cid ? ("inline" as const) : ("attachment" as const),
    })),
  };
}

/** Short enough that a dead server costs a retry soon, not a mailer stuck for minutes. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 20_000,
} as const;

/**
 * SMTP through nodemailer, one connection per message (few e-mails, each retried from the
 * queue). `smtpUrl` is nodemailer's connection URL: `smtp://user:pass@host:587` (STARTTLS when
 * the server offers it), `smtps://user:pass@host:465` (TLS from the start); query parameters
 * such as `?requireTLS=true` or `?tls.servername=…` pass through to nodemailer and override
 * the timeouts above.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    name: "smtp",
    async send(message) {
      await transporter.sendMail(nodemailerMessage(message));
    },
    async verify() {
      await transporter.verify();
    },
    close() {
      transporter.close();
    },
  };
}

/** One e-mail of the development outbox, as written to `<dir>/<timestamp>-<id>.json`. */
export interface OutboxMessage {
  /** The file's name without ".json": sortable by time. */
  id: string;
  createdAt: string;
  mailId: string;
  template: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: Array<{
    filename: string;
    contentType: string;
    cid: string | null;
    content: string;
  }>;
}

/**
 * The embedded default: every e-mail written as a JSON file under `dir` (nodemailer's JSON
 * transport composes it, so addresses and attachments are checked as for SMTP), for the
 * development outbox page. Written to a temporary name and renamed, so a reader never sees half
 * a message.
 */
export function createOutboxTransport(
  dir: string,
  now: () => Date = () => new Date(),
): MailTransport {
  const transporter = nodemailer.createTransport({ jsonTransport: true });
  return {
    name: "outbox",
    async send(message) {
      const info = await transporter.sendMail(nodemailerMessage(message));
      const composed = JSON.parse(info.message) as {
        attachments?: Array<{
          content: string;
          filename?: string;
          contentType?: string;
          cid?: string;
        }>;
      };
      const createdAt = now();
      const id = newOutboxId(createdAt, outboxRecipient(message.to));
      const record: OutboxMessage = {
        id,
        createdAt: createdAt.toISOString(),
        mailId: message.meta.mailId,
        template: message.meta.template,
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: (composed.attachments ?? []).map((attachment) => ({
          filename: attachment.filename ?? "",
          contentType: attachment.contentType ?? "application/octet-stream",
          cid: attachment.cid ?? null,
          content: attachment.content,
        })),
      };
      await writeOutboxFile(dir, id, record);
    },
  };
}

/**
 * The newest e-mails of the development outbox first, those to `to` only when given (case
 * ignored). A missing directory is an empty outbox; a file that does not read is skipped.
 */
export async function readOutbox(
  dir: string,
  options: { to?: string | null; limit: number },
): Promise<OutboxMessage[]> {
  const wanted = options.to ? outboxRecipient(options.to) : null;
  return readOutboxFiles<OutboxMessage>(dir, {
    limit: options.limit,
    recipient: wanted,
    keep: (message) => !wanted || outboxRecipient(message.to ?? "") === wanted,
  });
}

/** An address as the outbox compares it: case and surrounding spaces ignored. */
function outboxRecipient(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * The HTML of an outbox e-mail with its inline images (`cid:`) as data URLs, as a mail client
 * would show it. For the development page only, inside a sandboxed frame: it is the e-mail's
 * own HTML.
 */
export function outboxHtmlWithImages(message: OutboxMessage): string {
  return message.html.replace(/(["'])cid:([^"']+)\1/g, (whole, quote: string, cid: string) => {
    const attachment = message.attachments.find((candidate) => candidate.cid === cid);
    return attachment &&
      /^image\/(png|jpeg|gif)$/.test(attachment.contentType) &&
      /^[A-Za-z0-9+/]*={0,2}$/.test(attachment.content)
      ? `${quote}data:${attachment.contentType};base64,${attachment.content}${quote}`
      : whole;
  });
}
