import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server in the test process (smtp-server) on loopback, without TLS or
 * authentication, that keeps every message it accepts — raw, and parsed with mailparser — and
 * can be told to refuse them for a while.
 */
export interface SmtpSink {
  port: number;
  /** Raw messages accepted, in order. */
  raw: Buffer[];
  /** Messages accepted, parsed, in the order their parsing finished. */
  messages: ParsedMail[];
  /** Answer 451 (try later) to every message while true. */
  refuse: boolean;
  /** Every accepted message parsed, in the order received. */
  parsed(): Promise<ParsedMail[]>;
  /** Waits for a message matching `match` (up to `timeoutMs`). */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

const parse = (raw: Buffer) => simpleParser(raw, { skipImageLinks: true });

/** On any free port, or the one given. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const sink: SmtpSink = {
    port: 0,
    raw: [],
    messages: [],
    refuse: false,
    parsed: () => Promise.all(sink.raw.map(parse)),
    async waitFor(match, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = sink.messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `no such e-mail; received: ${sink.messages.map((mail) => mail.subject).join(" | ")}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (sink.refuse) {
          callback(
            Object.assign(new Error("Servicio no disponible, intenta más tarde"), {
              responseCode: 451,
            }),
          );
          return;
        }
        const raw = Buffer.concat(chunks);
        sink.raw.push(raw);
        callback();
        void parse(raw).then((mail) => sink.messages.push(mail));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  sink.port = (server.server.address() as AddressInfo).port;
  return sink;
}

/** A loopback port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const sink = await startSmtpSink();
  await sink.close();
  return sink.port;
}
