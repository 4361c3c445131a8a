import { isIP } from "node:net";
import type { Logger } from "pino";
import smpp from "smpp";
import { DATA_CODING } from "./encoding";
import { prepareSms, SmsRefused, type SmsSender, SmsUnavailable } from "./sender";

/**
 * SMS through the operator's SMSC, in SMPP 3.4 with the `smpp` package (0.5.1). The package
 * only frames PDUs: it has no timeouts, answers nothing by itself and reuses a dead socket on
 * reconnection, so this adapter keeps its own session. Decision record 0089.
 *
 * - One transceiver session, bound on the first send and shared by all the sends after it.
 * - Every request has its own timer; a request without an answer in time, or a link that does
 *   not answer our enquire_link, ends the session (a dead link), and the next send opens a new
 *   one. A session that ends rejects what was waiting on it.
 * - After a connection or bind that fails, sends fail at once until a backoff delay has passed
 *   (1 s doubling up to 30 s, with jitter), so a down SMSC is not hammered.
 * - It answers the SMSC's enquire_link, unbind and deliver_sm, and logs delivery receipts by
 *   message id and status. Nothing logged names the number or the text: only the template.
 */

export interface SmppSenderOptions {
  /** `smpp://host:port` (TCP, port 2775 by default) or `ssmpp://host:port` (TLS, 3550). */
  url: string;
  /** SMPP system_id: 1–15 characters. */
  systemId: string;
  /** SMPP password: at most 8 characters (SMPP 3.4). */
  password: string;
  /**
   * The sender the customer sees: alphanumeric (up to 11 letters, digits or spaces with at
   * least one letter, TON 5 / NPI 0), a short code (3–8 digits, TON 3 / NPI 0) or an
   * international number (52 + 10 digits, TON 1 / NPI 1).
   */
  sourceAddr: string;
  /** How long connecting and binding, a submit or an enquire_link may take. Default 10 s. */
  timeoutMs?: number;
  /** How often an idle bound session checks its link with enquire_link. Default 30 s. */
  enquireLinkMs?: number;
  /** The backoff after a failed connection or bind. Default 1 s doubling up to 30 s. */
  reconnectDelayMs?: { first: number; max: number };
  /** For ssmpp:// only: passed to tls.connect (a private CA). The server's name is always checked. */
  tls?: { ca?: string | Buffer };
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** For tests: the jitter's randomness and the clock. */
  random?: () => number;
  now?: () => number;
}

export interface SmppSender extends SmsSender {
  readonly name: "smpp";
  /** Connects and binds if not bound yet; rejects with an SmsUnavailable (for readiness). */
  verify(): Promise<void>;
  /** Unbinds and closes the session; sends after it reject. */
  close(): Promise<void>;
}

/** The TON and NPI of a source address, or null when it is none of the three accepted forms. */
export function smppSourceAddress(sourceAddr: string): { ton: number; npi: number } | null {
  if (/^52\d{10}$/.test(sourceAddr)) return { ton: 1, npi: 1 };
  if (/^\d{3,8}$/.test(sourceAddr)) return { ton: 3, npi: 0 };
  if (/^[A-Za-z0-9 ]{1,11}$/.test(sourceAddr) && /[A-Za-z]/.test(sourceAddr)) {
    return { ton: 5, npi: 0 };
  }
  return null;
}

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** Throws a TypeError naming the option that is wrong (never its value, for the password). */
export function assertSmppSenderOptions(options: SmppSenderOptions): void {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError("SMPP url is not a URL (smpp://host:port or ssmpp://host:port)");
  }
  if ((url.protocol !== "smpp:" && url.protocol !== "ssmpp:") || url.hostname === "") {
    throw new TypeError("SMPP url must be smpp://host:port or ssmpp://host:port");
  }
  if (url.username || url.password) {
    throw new TypeError(
      "SMPP url must not carry credentials: give the system id and password apart",
    );
  }
  if (!PRINTABLE_ASCII.test(options.systemId) || !/^.{1,15}$/.test(options.systemId)) {
    throw new TypeError("SMPP system id must be 1 to 15 printable ASCII characters");
  }
  if (!PRINTABLE_ASCII.test(options.password) || options.password.length > 8) {
    throw new TypeError("SMPP password must be at most 8 printable ASCII characters (SMPP 3.4)");
  }
  if (!smppSourceAddress(options.sourceAddr)) {
    throw new TypeError(
      "SMPP source address must be alphanumeric (up to 11), a short code (3 to 8 digits) or 52 and 10 digits",
    );
  }
  for (const [name, value] of [
    ["timeoutMs", options.timeoutMs],
    ["enquireLinkMs", options.enquireLinkMs],
    ["reconnectDelayMs.first", options.reconnectDelayMs?.first],
    ["reconnectDelayMs.max", options.reconnectDelayMs?.max],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new TypeError(`SMPP ${name} must be a positive whole number of milliseconds`);
    }
  }
}

const SMPP_3_4 = 0x34;

/** The names of the SMPP command statuses, for logs and error messages. */
const STATUS_NAMES = new Map(Object.entries(smpp.errors).map(([name, code]) => [code, name]));

export function commandStatusName(status: number): string {
  return STATUS_NAMES.get(status) ?? `0x${status.toString(16).padStart(8, "0")}`;
}

/** message_state (TLV 0x0427) as the receipt's text writes it (SMPP 3.4 Appendix B). */
const RECEIPT_STATES = new Map<number, string>([
  [smpp.MESSAGE_STATE.ENROUTE, "ENROUTE"],
  [smpp.MESSAGE_STATE.DELIVERED, "DELIVRD"],
  [smpp.MESSAGE_STATE.EXPIRED, "EXPIRED"],
  [smpp.MESSAGE_STATE.DELETED, "DELETED"],
  [smpp.MESSAGE_STATE.UNDELIVERABLE, "UNDELIV"],
  [smpp.MESSAGE_STATE.ACCEPTED, "ACCEPTD"],
  [smpp.MESSAGE_STATE.UNKNOWN, "UNKNOWN"],
  [smpp.MESSAGE_STATE.REJECTED, "REJECTD"],
]);

/** What a delivery receipt says, read from its TLVs or else its text; nothing else of it is kept. */
export function readDeliveryReceipt(pdu: smpp.PDU): {
  messageId: string | null;
  stat: string | null;
} {
  const message = pdu.short_message;
  const text =
    message &&
    typeof message === "object" &&
    !Buffer.isBuffer(message) &&
    typeof message.message === "string"
      ? message.message
      : "";
  const messageId = pdu.receipted_message_id || /(?:^|\s)id:(\S+)/i.exec(text)?.[1] || null;
  const stat =
    (pdu.message_state !== undefined ? RECEIPT_STATES.get(pdu.message_state) : undefined) ??
    /(?:^|\s)stat:(\S+)/i.exec(text)?.[1] ??
    null;
  return {
    messageId: messageId && /^[\w.:-]{1,64}$/.test(messageId) ? messageId : null,
    stat: stat && /^[A-Za-z]{1,10}$/.test(stat) ? stat.toUpperCase() : null,
  };
}

/** What the SMSC's answer to a submit_sm means for the store. */
function submitError(status: number, template: string): SmsRefused | SmsUnavailable {
  const name = commandStatusName(status);
  const message = `SMSC did not take SMS "${template}": ${name}`;
  switch (status) {
    case smpp.ESME_RINVDSTADR:
      return new SmsRefused(message, { reason: "invalid-destination", commandStatus: status });
    case smpp.ESME_RTHROTTLED:
    case smpp.ESME_RMSGQFUL:
      return new SmsUnavailable(message, { reason: "throttled", commandStatus: status });
    case smpp.ESME_RINVBNDSTS:
      return new SmsUnavailable(message, { reason: "connection", commandStatus: status });
    default:
      return new SmsUnavailable(message, { reason: "smsc-error", commandStatus: status });
  }
}

/** SMPP 3.4 text for a 10-digit Mexican number: international form, 52 + 10 digits. */
function destination(to: string) {
  return { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: `52${to}` };
}

/** The bytes of a text in its encoding: ASCII for "gsm7" (see encoding.ts), UTF-16BE for UCS2. */
function shortMessage(text: string, encoding: "gsm7" | "ucs2"): Buffer {
  return encoding === "gsm7" ? Buffer.from(text, "ascii") : Buffer.from(text, "utf16le").swap16();
}

interface Connection {
  session: smpp.Session;
  /** Resolves once bound; rejects with why it could not bind. */
  ready: Promise<void>;
  bound: boolean;
  gone: boolean;
  /** Rejects every request still waiting on this session. */
  waiting: Set<(error: SmsUnavailable) => void>;
  enquireTimer: ReturnType<typeof setInterval> | null;
  enquiring: boolean;
}

export function createSmppSender(options: SmppSenderOptions): SmppSender {
  assertSmppSenderOptions(options);
  const { logger } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const enquireLinkMs = options.enquireLinkMs ?? 30_000;
  const backoff = options.reconnectDelayMs ?? { first: 1_000, max: 30_000 };
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const source = smppSourceAddress(options.sourceAddr)!;
  const url = new URL(options.url);
  const tls = url.protocol === "ssmpp:";

  let current: Connection | null = null;
  let failures = 0;
  let retryAt = 0;
  let lastFailure: SmsUnavailable | null = null;
  let closed = false;

  /**
   * Ends a session for good and rejects what waits on it. `graceful` lets what was written go
   * out first (our unbind_resp); otherwise the socket is dropped at once (a dead link).
   */
  function end(connection: Connection, error: SmsUnavailable, graceful = false) {
    if (connection.gone) return;
    connection.gone = true;
    if (connection.enquireTimer) clearInterval(connection.enquireTimer);
    for (const reject of connection.waiting) reject(error);
    connection.waiting.clear();
    if (current === connection) current = null;
    if (connection.bound) {
      failures = 0;
      retryAt = 0;
      if (!closed) {
        logger.warn({ msg: "smpp session ended", reason: error.reason, error: error.message });
      }
    } else {
      failures += 1;
      const delay = Math.min(backoff.max, backoff.first * 2 ** (failures - 1));
      const retryInMs = Math.round(delay * (0.5 + random() / 2));
      retryAt = now() + retryInMs;
      lastFailure = error;
      if (!closed) {
        logger[error.reason === "bind-refused" ? "error" : "warn"]({
          msg: "smpp connection failed",
          reason: error.reason,
          error: error.message,
          retryInMs,
        });
      }
    }
    if (graceful) connection.session.close();
    else connection.session.destroy();
  }

  /** Sends a request on a bound session; its answer, or an SmsUnavailable. */
  function request(
    connection: Connection,
    command: "submit_sm" | "enquire_link" | "unbind",
    fields: smpp.PduOptions,
  ): Promise<smpp.PDU> {
    return new Promise((resolve, reject) => {
      if (connection.gone) {
        reject(new SmsUnavailable("SMPP session ended", { reason: "connection" }));
        return;
      }
      const settle = (error: SmsUnavailable | null, pdu?: smpp.PDU) => {
        clearTimeout(timer);
        connection.waiting.delete(onEnd);
        if (error) reject(error);
        else resolve(pdu!);
      };
      const onEnd = (error: SmsUnavailable) => settle(error);
      const timer = setTimeout(() => {
        const error = new SmsUnavailable(`SMSC did not answer ${command} in ${timeoutMs} ms`, {
          reason: "timeout",
        });
        settle(error);
        // No answer in time: the link is taken for dead, and the next send starts afresh.
        end(connection, error);
      }, timeoutMs);
      connection.waiting.add(onEnd);
      const written = connection.session[command](fields, (pdu) => settle(null, pdu));
      if (!written) {
        const error = new SmsUnavailable("SMPP connection not writable", { reason: "connection" });
        settle(error);
        end(connection, error);
      }
    });
  }

  function checkLink(connection: Connection) {
    if (connection.enquiring || connection.gone) return;
    connection.enquiring = true;
    request(connection, "enquire_link", {})
      .catch(() => undefined)
      .finally(() => {
        connection.enquiring = false;
      });
  }

  function answerIncoming(connection: Connection) {
    const { session } = connection;
    session.on("enquire_link", (pdu) => {
      session.send(pdu.response());
    });
    session.on("unbind", (pdu) => {
      session.send(pdu.response());
      logger.info({ msg: "smpp unbound by the SMSC" });
      end(
        connection,
        new SmsUnavailable("SMSC unbound the session", { reason: "connection" }),
        true,
      );
    });
    session.on("deliver_sm", (pdu) => {
      session.send(pdu.response());
      if (((pdu.esm_class ?? 0) & smpp.ESM_CLASS.MC_DELIVERY_RECEIPT) !== 0) {
        logger.info({ msg: "sms delivery receipt", ...readDeliveryReceipt(pdu) });
      } else {
        logger.info({ msg: "smpp incoming SMS ignored" });
      }
    });
    session.on("pdu", (pdu) => {
      if (pdu.isResponse() || ["enquire_link", "unbind", "deliver_sm"].includes(pdu.command)) {
        return;
      }
      // alert_notification has no response; anything else we do not serve is refused.
      if (pdu.command !== "alert_notification") {
        session.send(pdu.response({ command_status: smpp.ESME_RINVCMDID }));
      }
    });
  }

  function open(): Connection {
    const session = smpp.connect({
      url: options.url,
      ...(tls
        ? {
            ...options.tls,
            rejectUnauthorized: true,
            servername: isIP(url.hostname) ? undefined : url.hostname,
          }
        : {}),
    });
    const connection: Connection = {
      session,
      ready: Promise.resolve(),
      bound: false,
      gone: false,
      waiting: new Set(),
      enquireTimer: null,
      enquiring: false,
    };
    session.on("error", (error) => {
      end(
        connection,
        new SmsUnavailable(`SMPP connection failed: ${error.code ?? error.message}`, {
          reason: "connection",
          cause: error,
        }),
      );
    });
    session.on("close", () => {
      end(
        connection,
        new SmsUnavailable("SMPP connection closed before the SMSC answered", {
          reason: "connection",
        }),
      );
    });
    answerIncoming(connection);

    connection.ready = new Promise<void>((resolve, reject) => {
      const settle = (error: SmsUnavailable | null) => {
        clearTimeout(timer);
        connection.waiting.delete(onEnd);
        if (error) {
          reject(error);
          end(connection, error);
        } else {
          resolve();
        }
      };
      const onEnd = (error: SmsUnavailable) => settle(error);
      const timer = setTimeout(
        () =>
          settle(new SmsUnavailable(`SMSC did not bind in ${timeoutMs} ms`, { reason: "timeout" })),
        timeoutMs,
      );
      connection.waiting.add(onEnd);
      session.once(tls ? "secureConnect" : "connect", () => {
        session.bind_transceiver(
          {
            system_id: options.systemId,
            password: options.password,
            system_type: "",
            interface_version: SMPP_3_4,
            addr_ton: 0,
            addr_npi: 0,
            address_range: "",
          },
          (pdu) => {
            if (connection.gone) return;
            if (pdu.command_status !== smpp.ESME_ROK) {
              settle(
                new SmsUnavailable(
                  `SMSC refused the bind: ${commandStatusName(pdu.command_status)}`,
                  {
                    reason: "bind-refused",
                    commandStatus: pdu.command_status,
                  },
                ),
              );
              return;
            }
            connection.bound = true;
            failures = 0;
            lastFailure = null;
            connection.enquireTimer = setInterval(() => checkLink(connection), enquireLinkMs);
            connection.enquireTimer.unref();
            logger.info({ msg: "smpp bound", url: `${url.protocol}//${url.host}` });
            settle(null);
          },
        );
      });
    });
    // Whoever waits on `ready` handles its rejection; nobody may be waiting when it happens.
    connection.ready.catch(() => undefined);
    return connection;
  }

  async function bound(): Promise<Connection> {
    if (closed) throw new SmsUnavailable("SMPP sender closed", { reason: "connection" });
    if (!current) {
      const wait = retryAt - now();
      if (wait > 0 && lastFailure) {
        throw new SmsUnavailable(
          `${lastFailure.message}; next try in ${Math.ceil(wait / 1000)} s`,
          {
            reason: lastFailure.reason,
            commandStatus: lastFailure.commandStatus ?? undefined,
          },
        );
      }
      current = open();
    }
    const connection = current;
    await connection.ready;
    return connection;
  }

  return {
    name: "smpp",
    async send(message) {
      const prepared = prepareSms(message);
      const connection = await bound();
      const response = await request(connection, "submit_sm", {
        service_type: "",
        source_addr_ton: source.ton,
        source_addr_npi: source.npi,
        source_addr: options.sourceAddr,
        ...destination(prepared.to),
        esm_class: 0,
        protocol_id: 0,
        priority_flag: 0,
        registered_delivery: smpp.REGISTERED_DELIVERY.FINAL,
        data_coding: DATA_CODING[prepared.encoding],
        short_message: shortMessage(prepared.text, prepared.encoding),
      });
      if (response.command_status !== smpp.ESME_ROK) {
        const error = submitError(response.command_status, prepared.template);
        // The SMSC no longer takes this session for bound: the next send binds a new one.
        if (error instanceof SmsUnavailable && error.reason === "connection") {
          end(connection, error);
        }
        logger.warn({
          msg: "sms not taken by the SMSC",
          template: prepared.template,
          status: commandStatusName(response.command_status),
        });
        throw error;
      }
      logger.info({
        msg: "sms sent",
        template: prepared.template,
        messageId: response.message_id || null,
        encoding: prepared.encoding,
      });
    },
    async verify() {
      await bound();
    },
    async close() {
      closed = true;
      const connection = current;
      if (!connection) return;
      if (connection.bound && !connection.gone) {
        await request(connection, "unbind", {}).catch(() => undefined);
      }
      if (!connection.gone) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            connection.session.destroy();
            resolve();
          }, timeoutMs);
          connection.session.close(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      end(connection, new SmsUnavailable("SMPP sender closed", { reason: "connection" }));
    },
  };
}
