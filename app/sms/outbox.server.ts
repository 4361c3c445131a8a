import { newOutboxId, readOutboxFiles, writeOutboxFile } from "~/lib/file-outbox.server";
import type { SmsEncoding } from "./encoding";
import { prepareSms, type SmsSender } from "./sender";

/** One SMS of the development outbox, as written to `<dir>/<timestamp>-<id>.json`. */
export interface SmsOutboxMessage {
  /** The file's name without ".json": sortable by time. */
  id: string;
  createdAt: string;
  template: string;
  /** 10 digits. */
  to: string;
  text: string;
  /** How the SMPP adapter would send it, and its length against the one-SMS limit. */
  encoding: SmsEncoding;
  length: number;
  limit: number;
}

/**
 * The embedded default: every SMS written as a JSON file under `dir`, beside the e-mails, for
 * the development outbox page. Checks the message as the SMPP adapter does (10-digit number, one
 * SMS long), so a template too long for one SMS fails in development too.
 */
export function createSmsOutbox(dir: string, now: () => Date = () => new Date()): SmsSender {
  return {
    name: "outbox",
    async send(message) {
      const prepared = prepareSms(message);
      const createdAt = now();
      const id = newOutboxId(createdAt, prepared.to);
      const record: SmsOutboxMessage = {
        id,
        createdAt: createdAt.toISOString(),
        template: prepared.template,
        to: prepared.to,
        text: prepared.text,
        encoding: prepared.encoding,
        length: prepared.length,
        limit: prepared.limit,
      };
      await writeOutboxFile(dir, id, record);
    },
  };
}

/**
 * The newest SMS of the development outbox first, those to `to` only when given (spaces
 * ignored). A missing directory is an empty outbox; a file that does not read is skipped.
 */
export async function readSmsOutbox(
  dir: string,
  options: { to?: string | null; limit: number },
): Promise<SmsOutboxMessage[]> {
  const wanted = options.to?.replace(/\s/g, "") || null;
  return readOutboxFiles<SmsOutboxMessage>(dir, {
    limit: options.limit,
    recipient: wanted,
    keep: (message) => !wanted || message.to === wanted,
  });
}
