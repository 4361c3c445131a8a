import type { AddressInfo } from "node:net";
import smpp from "smpp";

/**
 * An SMSC in the test process: the `smpp` package's own server on loopback, speaking SMPP 3.4
 * to one ESME. It keeps what it was sent (each short_message decoded by its data_coding, as a
 * real SMSC would), answers as told, and can act on its own (enquire_link, unbind, receipts).
 */
export interface SmscStandIn {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  binds: Array<{ command: string; systemId: string; password: string; interfaceVersion: number }>;
  submits: Array<{
    sourceAddr: string;
    sourceTon: number;
    sourceNpi: number;
    destination: string;
    destTon: number;
    destNpi: number;
    registeredDelivery: number;
    dataCoding: number;
    /** short_message decoded at the server by its data_coding. */
    text: string;
    messageId: string;
  }>;
  /** enquire_link received from the client. */
  enquireLinks: number;
  unbinds: number;
  /** The command_status of each deliver_sm_resp the client sent back. */
  receiptAnswers: number[];
  /** The bind's answer: 0 binds, anything else is the refusal's command_status. */
  bindStatus: number;
  /** How submit_sm is answered: accepted, a command_status, never, or by dropping the connection. */
  onSubmit: "accept" | "ignore" | "drop" | number;
  /** Whether enquire_link from the client gets an answer. */
  answerEnquireLink: boolean;
  /** After an accepted submit_sm: a receipt with TLVs, one with its text only, or none. */
  receipts: "tlv" | "text" | "none";
  /** Sends enquire_link to the client; resolves with its answer (or rejects after 2 s). */
  enquireLinkFromServer(): Promise<smpp.PDU>;
  /** Sends unbind to the client; resolves with its answer (or rejects after 2 s). */
  unbindFromServer(): Promise<smpp.PDU>;
  /** Sends a data_sm (which the store does not serve) to the client; resolves with its answer. */
  dataSmFromServer(): Promise<smpp.PDU>;
  /** Sends an SMS from a phone (deliver_sm, no receipt) to the client; resolves with its answer. */
  incomingSmsFromServer(from: string, text: string): Promise<smpp.PDU>;
  /** Waits until `condition` holds (up to 5 s). */
  waitUntil(condition: () => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

function ask(
  session: smpp.Session | undefined,
  command: "enquire_link" | "unbind" | "data_sm" | "deliver_sm",
  fields: smpp.PduOptions = {},
) {
  return new Promise<smpp.PDU>((resolve, reject) => {
    if (!session) return reject(new Error("no client session"));
    const timer = setTimeout(() => reject(new Error(`no answer to ${command}`)), 2_000);
    session[command](fields, (pdu) => {
      clearTimeout(timer);
      resolve(pdu);
    });
  });
}

/** Plain SMPP on 127.0.0.1, or SMPP over TLS (ssmpp://localhost) with the key and certificate given. */
export async function startSmscStandIn(
  options: { tls?: { key: string; cert: string } } = {},
): Promise<SmscStandIn> {
  let nextId = 0x1a2b00;
  const server = smpp.createServer(options.tls ?? {}, (session) => {
    stand.connections += 1;
    session.on("error", () => undefined);
    for (const command of ["bind_transceiver", "bind_transmitter", "bind_receiver"]) {
      session.on(command, (pdu) => {
        stand.binds.push({
          command,
          systemId: pdu.system_id ?? "",
          password: pdu.password ?? "",
          interfaceVersion: pdu.interface_version ?? -1,
        });
        if (stand.bindStatus !== 0) {
          session.send(pdu.response({ command_status: stand.bindStatus }));
          session.close();
          return;
        }
        session.send(pdu.response({ system_id: "STANDIN" }));
      });
    }
    session.on("enquire_link", (pdu) => {
      stand.enquireLinks += 1;
      if (stand.answerEnquireLink) session.send(pdu.response());
    });
    session.on("unbind", (pdu) => {
      stand.unbinds += 1;
      session.send(pdu.response());
      session.close();
    });
    session.on("submit_sm", (pdu) => {
      const message = pdu.short_message;
      const text =
        message && typeof message === "object" && !Buffer.isBuffer(message)
          ? String(message.message)
          : String(message);
      const messageId = (nextId++).toString(16);
      stand.submits.push({
        sourceAddr: pdu.source_addr ?? "",
        sourceTon: pdu.source_addr_ton ?? -1,
        sourceNpi: pdu.source_addr_npi ?? -1,
        destination: pdu.destination_addr ?? "",
        destTon: pdu.dest_addr_ton ?? -1,
        destNpi: pdu.dest_addr_npi ?? -1,
        registeredDelivery: pdu.registered_delivery ?? 0,
        dataCoding: pdu.data_coding ?? -1,
        text,
        messageId,
      });
      const onSubmit = stand.onSubmit;
      if (onSubmit === "ignore") return;
      if (onSubmit === "drop") {
        session.destroy();
        return;
      }
      if (typeof onSubmit === "number") {
        session.send(pdu.response({ command_status: onSubmit }));
        return;
      }
      session.send(pdu.response({ message_id: messageId }));
      if (stand.receipts === "none") return;
      const receiptText =
        `id:${messageId} sub:001 dlvrd:001 submit date:2611241000 done date:2611241001 ` +
        `stat:DELIVRD err:000 text:${text.slice(0, 20)}`;
      session.deliver_sm(
        {
          source_addr_ton: pdu.dest_addr_ton,
          source_addr_npi: pdu.dest_addr_npi,
          source_addr: pdu.destination_addr,
          destination_addr: pdu.source_addr,
          esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
          data_coding: 0,
          short_message: receiptText,
          ...(stand.receipts === "tlv"
            ? { receipted_message_id: messageId, message_state: smpp.MESSAGE_STATE.DELIVERED }
            : {}),
        },
        (resp) => stand.receiptAnswers.push(resp.command_status),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const stand: SmscStandIn = {
    url: options.tls ? `ssmpp://localhost:${port}` : `smpp://127.0.0.1:${port}`,
    connections: 0,
    binds: [],
    submits: [],
    enquireLinks: 0,
    unbinds: 0,
    receiptAnswers: [],
    bindStatus: 0,
    onSubmit: "accept",
    answerEnquireLink: true,
    receipts: "tlv",
    enquireLinkFromServer: () => ask(server.sessions.at(-1), "enquire_link"),
    unbindFromServer: () => ask(server.sessions.at(-1), "unbind"),
    dataSmFromServer: () => ask(server.sessions.at(-1), "data_sm"),
    incomingSmsFromServer: (from, text) =>
      ask(server.sessions.at(-1), "deliver_sm", {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: from,
        destination_addr: "ConectaMx",
        esm_class: 0,
        short_message: text,
      }),
    async waitUntil(condition, what) {
      const deadline = Date.now() + 5_000;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`stand-in SMSC: never saw ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of [...server.sessions]) session.destroy();
        server.close(() => resolve());
      }),
  };
  return stand;
}
