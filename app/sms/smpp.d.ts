/**
 * Types for the parts of the `smpp` package (0.5.1, farhadi/node-smpp) that the store uses: the
 * package ships none and `@types/smpp` does not exist. Written from its lib/smpp.js, lib/pdu.js
 * and lib/defs.js; widen them here when using more of it.
 */
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer } from "node:net";

  namespace smpp {
    /** A decoded short_message: the text already decoded by data_coding (GSM 03.38 for 0). */
    interface DecodedMessage {
      udh?: Buffer[];
      message: string | Buffer;
    }

    /** The fields the store reads or writes; a PDU carries any of the command's parameters and TLVs. */
    interface PduFields {
      system_id?: string;
      password?: string;
      system_type?: string;
      interface_version?: number;
      addr_ton?: number;
      addr_npi?: number;
      address_range?: string;
      service_type?: string;
      source_addr_ton?: number;
      source_addr_npi?: number;
      source_addr?: string;
      dest_addr_ton?: number;
      dest_addr_npi?: number;
      destination_addr?: string;
      esm_class?: number;
      protocol_id?: number;
      priority_flag?: number;
      registered_delivery?: number;
      data_coding?: number | null;
      /** A Buffer is sent as is (data_coding must then be given); a string is encoded by the package. */
      short_message?: Buffer | string | DecodedMessage;
      message_id?: string;
      /** TLV 0x001E of a delivery receipt. */
      receipted_message_id?: string;
      /** TLV 0x0427 of a delivery receipt (MESSAGE_STATE). */
      message_state?: number;
    }

    /** What a request or response is made of: its fields, and for a response its status. */
    type PduOptions = PduFields & { command_status?: number; sequence_number?: number };

    interface PDU extends PduFields {
      /** "submit_sm", "deliver_sm_resp", …; "unknown" for a command the package does not know. */
      command: string;
      command_id: number;
      command_status: number;
      sequence_number: number;
      isResponse(): boolean;
      /** The response to this request, with its sequence number. */
      response(options?: PduOptions): PDU;
    }

    type ResponseCallback = (pdu: PDU) => void;
    type Command = (
      options?: PduOptions,
      responseCallback?: ResponseCallback,
      sendCallback?: ResponseCallback,
    ) => boolean;

    /** One SMPP connection. Every request method returns false when the socket is not writable. */
    interface Session extends EventEmitter {
      /** Requests still waiting for their response, by sequence number (the package never expires them). */
      _callbacks: Record<number, ResponseCallback>;
      send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
      bind_transceiver: Command;
      submit_sm: Command;
      deliver_sm: Command;
      enquire_link: Command;
      data_sm: Command;
      unbind: Command;
      pause(): void;
      resume(): void;
      /** Ends the socket gracefully. */
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      on(event: "connect" | "secureConnect" | "close", listener: () => void): this;
      on(event: "error", listener: (error: Error & { code?: string }) => void): this;
      on(event: string, listener: (pdu: PDU) => void): this;
      once(event: "connect" | "secureConnect" | "close", listener: () => void): this;
      once(event: "error", listener: (error: Error & { code?: string }) => void): this;
      once(event: string, listener: (pdu: PDU) => void): this;
    }

    interface ConnectOptions {
      /** smpp://host:port (TCP, default port 2775) or ssmpp://host:port (TLS, default port 3550). */
      url: string;
      /** The package sends enquire_link this often, without checking the answers; the store does not use it. */
      auto_enquire_link_period?: number;
      /** Passed on to tls.connect for ssmpp:// (servername, ca, rejectUnauthorized…). */
      [tlsOption: string]: unknown;
    }

    interface Server extends NetServer {
      sessions: Session[];
    }

    function connect(options: ConnectOptions): Session;
    function createServer(listener: (session: Session) => void): Server;
    /** With a key and a certificate (PEM), SMPP over TLS. */
    function createServer(
      options: { key?: string | Buffer; cert?: string | Buffer },
      listener: (session: Session) => void,
    ): Server;

    interface Encoding {
      match(value: string): boolean;
      encode(value: string): Buffer;
      decode(value: Buffer): string;
    }
    /** The package's encoders: "ASCII" is really GSM 03.38 (unpacked, one character a byte). */
    const encodings: { ASCII: Encoding; LATIN1: Encoding; UCS2: Encoding; default: string };

    const errors: Readonly<Record<string, number>>;
    const ESME_ROK: number;
    const ESME_RINVMSGLEN: number;
    const ESME_RINVBNDSTS: number;
    const ESME_RALYBND: number;
    const ESME_RSYSERR: number;
    const ESME_RINVSRCADR: number;
    const ESME_RINVDSTADR: number;
    const ESME_RBINDFAIL: number;
    const ESME_RINVPASWD: number;
    const ESME_RINVSYSID: number;
    const ESME_RMSGQFUL: number;
    const ESME_RSUBMITFAIL: number;
    const ESME_RTHROTTLED: number;
    const ESME_RINVDCS: number;
    const ESME_RINVCMDID: number;

    const ESM_CLASS: Readonly<{ MC_DELIVERY_RECEIPT: number }>;
    const REGISTERED_DELIVERY: Readonly<{ FINAL: number; FAILURE: number }>;
    const MESSAGE_STATE: Readonly<{
      SCHEDULED: number;
      ENROUTE: number;
      DELIVERED: number;
      EXPIRED: number;
      DELETED: number;
      UNDELIVERABLE: number;
      ACCEPTED: number;
      UNKNOWN: number;
      REJECTED: number;
      SKIPPED: number;
    }>;
  }

  export = smpp;
}
