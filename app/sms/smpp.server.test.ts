import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import smpp from "smpp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSmscStandIn, type SmscStandIn } from "../../tests/support/smsc-stand-in";
import { isSmsRefused, isSmsUnavailable, type SmsMessage } from "./sender";
import {
  assertSmppSenderOptions,
  createSmppSender,
  readDeliveryReceipt,
  type SmppSender,
  type SmppSenderOptions,
} from "./smpp.server";

const NUMBER = "5512345678";
const CODE_TEXT = "Tu codigo de Conecta Movil es 482913";

let smsc: SmscStandIn;
let senders: SmppSender[];
let logs: Array<{ level: string; line: Record<string, unknown> }>;

beforeEach(async () => {
  smsc = await startSmscStandIn();
  senders = [];
  logs = [];
});
afterEach(async () => {
  await Promise.all(senders.map((sender) => sender.close()));
  await smsc.close();
});

function logger() {
  const at = (level: string) => (line: Record<string, unknown>) => logs.push({ level, line });
  return { info: at("info"), warn: at("warn"), error: at("error") } as SmppSenderOptions["logger"];
}

function sender(extra: Partial<SmppSenderOptions> = {}): SmppSender {
  const created = createSmppSender({
    url: smsc.url,
    systemId: "conecta",
    password: "s3cr3t",
    sourceAddr: "ConectaMx",
    timeoutMs: 500,
    reconnectDelayMs: { first: 200, max: 1_000 },
    random: () => 1,
    logger: logger(),
    ...extra,
  });
  senders.push(created);
  return created;
}

function sms(text = CODE_TEXT, to = NUMBER): SmsMessage {
  return { to, text, template: "line_code" };
}

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}

function logText() {
  return JSON.stringify(logs);
}

/** The log never names the number (10 digits or 52 + 10) nor any part of a text. */
function expectLogsToKeepSecrets(...texts: string[]) {
  const text = logText();
  expect(text).not.toContain("12345678");
  for (const sent of texts) {
    for (const word of sent.split(/\s+/).filter((part) => part.length >= 5)) {
      expect(text).not.toContain(word);
    }
  }
  expect(text).not.toContain("s3cr3t");
}

describe("the SMPP sender", () => {
  it("binds as an SMPP 3.4 transceiver on the first send and submits in international form", async () => {
    const smppSender = sender();
    expect(smsc.connections).toBe(0);
    await smppSender.send(sms());

    expect(smsc.binds).toEqual([
      {
        command: "bind_transceiver",
        systemId: "conecta",
        password: "s3cr3t",
        interfaceVersion: 0x34,
      },
    ]);
    expect(smsc.submits).toEqual([
      expect.objectContaining({
        sourceAddr: "ConectaMx",
        sourceTon: 5,
        sourceNpi: 0,
        destination: "525512345678",
        destTon: 1,
        destNpi: 1,
        registeredDelivery: 1,
        dataCoding: 0,
        text: CODE_TEXT,
      }),
    ]);
    const sent = logs.find((entry) => entry.line.msg === "sms sent");
    expect(sent?.line).toEqual({
      msg: "sms sent",
      template: "line_code",
      messageId: smsc.submits[0].messageId,
      encoding: "gsm7",
    });
    expectLogsToKeepSecrets(CODE_TEXT);
  });

  it("shares one session between sends, also when they start together", async () => {
    const smppSender = sender();
    await Promise.all([smppSender.send(sms("Uno")), smppSender.send(sms("Dos"))]);
    await smppSender.send(sms("Tres"));
    expect(smsc.connections).toBe(1);
    expect(smsc.binds).toHaveLength(1);
    expect(smsc.submits.map((submit) => submit.text).sort()).toEqual(["Dos", "Tres", "Uno"]);
  });

  it("sends accents and $ @ _ as UCS2, and they arrive intact", async () => {
    const smppSender = sender();
    const texts = [
      "Tu código es 482913. ¿No lo pediste? Ignóralo.",
      "Recarga de $50 aplicada a tu línea",
      "Escribe a ayuda@conecta.mx o usa mi_cuenta ñandú",
    ];
    for (const text of texts) await smppSender.send(sms(text));
    expect(smsc.submits.map(({ dataCoding, text }) => ({ dataCoding, text }))).toEqual(
      texts.map((text) => ({ dataCoding: 8, text })),
    );
    expectLogsToKeepSecrets(...texts);
  });

  it("sends plain text as data_coding 0 that reads the same as GSM 03.38 and as Latin-1", async () => {
    const smppSender = sender();
    const text = 'Codigo: 482913 (vence en 10 min). "Conecta" #1 & 100% seguro? Si!';
    await smppSender.send(sms(text));
    const previous = smpp.encodings.default;
    smpp.encodings.default = "LATIN1";
    try {
      await smppSender.send(sms(text));
    } finally {
      smpp.encodings.default = previous;
    }
    expect(smsc.submits.map(({ dataCoding, text }) => ({ dataCoding, text }))).toEqual([
      { dataCoding: 0, text },
      { dataCoding: 0, text },
    ]);
  });

  it("refuses a text longer than one SMS before connecting", async () => {
    const smppSender = sender();
    const error = await failure(smppSender.send(sms("á".repeat(71))));
    expect(isSmsRefused(error) && error.reason).toBe("too-long");
    expect(smsc.connections).toBe(0);
  });

  it("logs the delivery receipt by message id and status, and answers it", async () => {
    const smppSender = sender();
    await smppSender.send(sms());
    smsc.receipts = "text";
    await smppSender.send(sms("Otro codigo 771234"));
    await smsc.waitUntil(() => smsc.receiptAnswers.length === 2, "both receipts answered");
    expect(smsc.receiptAnswers).toEqual([0, 0]);
    const receipts = logs.filter((entry) => entry.line.msg === "sms delivery receipt");
    expect(receipts.map((entry) => entry.line)).toEqual(
      smsc.submits.map((submit) => ({
        msg: "sms delivery receipt",
        messageId: submit.messageId,
        stat: "DELIVRD",
      })),
    );
    // The receipt names the number (as its source) and starts the text: neither is logged.
    expectLogsToKeepSecrets(CODE_TEXT, "Otro codigo 771234");
  });

  it("answers the SMSC's enquire_link and sends its own", async () => {
    const smppSender = sender({ enquireLinkMs: 50 });
    await smppSender.send(sms());
    const answer = await smsc.enquireLinkFromServer();
    expect(answer.command).toBe("enquire_link_resp");
    expect(answer.command_status).toBe(0);
    await smsc.waitUntil(() => smsc.enquireLinks >= 2, "two enquire_link from the client");
    expect(smsc.connections).toBe(1);
  });

  it("takes a link whose enquire_link goes unanswered for dead, and starts afresh on the next send", async () => {
    const smppSender = sender({ enquireLinkMs: 50, timeoutMs: 400 });
    await smppSender.send(sms());
    smsc.answerEnquireLink = false;
    await smsc.waitUntil(
      () => logs.some((entry) => entry.line.msg === "smpp session ended"),
      "the client noticing the dead link",
    );
    expect(logs.find((entry) => entry.line.msg === "smpp session ended")?.line).toMatchObject({
      reason: "timeout",
    });
    smsc.answerEnquireLink = true;
    await smppSender.send(sms());
    expect(smsc.connections).toBe(2);
    expect(smsc.binds).toHaveLength(2);
  });

  it("answers the SMSC's unbind, and binds again on the next send", async () => {
    const smppSender = sender();
    await smppSender.send(sms());
    const answer = await smsc.unbindFromServer();
    expect(answer.command).toBe("unbind_resp");
    expect(answer.command_status).toBe(0);
    await smsc.waitUntil(
      () => logs.some((entry) => entry.line.msg === "smpp unbound by the SMSC"),
      "the client closing",
    );
    await smppSender.send(sms());
    expect(smsc.binds).toHaveLength(2);
    expect(smsc.submits).toHaveLength(2);
  });

  it("refuses a destination the SMSC does not take, and keeps the session", async () => {
    const smppSender = sender();
    smsc.onSubmit = smpp.ESME_RINVDSTADR;
    const error = await failure(smppSender.send(sms()));
    expect(isSmsRefused(error)).toBe(true);
    expect(error).toMatchObject({ reason: "invalid-destination", commandStatus: 0x0b });
    expect(error.message).toBe('SMSC did not take SMS "line_code": ESME_RINVDSTADR');
    smsc.onSubmit = "accept";
    await smppSender.send(sms());
    expect(smsc.connections).toBe(1);
    expectLogsToKeepSecrets(CODE_TEXT);
  });

  it("reports throttling and the SMSC's errors as unavailable, to try later", async () => {
    const smppSender = sender();
    const answers = [
      [smpp.ESME_RTHROTTLED, "throttled"],
      [smpp.ESME_RMSGQFUL, "throttled"],
      [smpp.ESME_RSYSERR, "smsc-error"],
      [smpp.ESME_RSUBMITFAIL, "smsc-error"],
    ] as const;
    for (const [status, reason] of answers) {
      smsc.onSubmit = status;
      const error = await failure(smppSender.send(sms()));
      expect(isSmsUnavailable(error), String(status)).toBe(true);
      expect(error).toMatchObject({ reason, commandStatus: status });
    }
    expect(
      logs.filter((entry) => entry.line.msg === "sms not taken by the SMSC").map((e) => e.line),
    ).toEqual([
      { msg: "sms not taken by the SMSC", template: "line_code", status: "ESME_RTHROTTLED" },
      { msg: "sms not taken by the SMSC", template: "line_code", status: "ESME_RMSGQFUL" },
      { msg: "sms not taken by the SMSC", template: "line_code", status: "ESME_RSYSERR" },
      { msg: "sms not taken by the SMSC", template: "line_code", status: "ESME_RSUBMITFAIL" },
    ]);
    expect(smsc.connections).toBe(1);
  });

  it("binds a new session when the SMSC says this one is not bound", async () => {
    const smppSender = sender();
    smsc.onSubmit = smpp.ESME_RINVBNDSTS;
    const error = await failure(smppSender.send(sms()));
    expect(error).toMatchObject({ name: "SmsUnavailable", reason: "connection" });
    smsc.onSubmit = "accept";
    await smppSender.send(sms());
    expect(smsc.binds).toHaveLength(2);
  });

  it("rejects a send whose connection drops before the answer, and reconnects on the next", async () => {
    const smppSender = sender();
    await smppSender.send(sms());
    smsc.onSubmit = "drop";
    const error = await failure(smppSender.send(sms()));
    expect(isSmsUnavailable(error) && error.reason).toBe("connection");
    smsc.onSubmit = "accept";
    await smppSender.send(sms());
    expect(smsc.connections).toBe(2);
    expect(smsc.submits).toHaveLength(3);
    expectLogsToKeepSecrets(CODE_TEXT);
  });

  it("gives up on an SMSC that never answers, after its own timeout, and starts afresh", async () => {
    const smppSender = sender({ timeoutMs: 400 });
    await smppSender.send(sms());
    smsc.onSubmit = "ignore";
    const started = Date.now();
    const error = await failure(smppSender.send(sms()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(isSmsUnavailable(error) && error.reason).toBe("timeout");
    smsc.onSubmit = "accept";
    await smppSender.send(sms());
    expect(smsc.connections).toBe(2);
  });

  it("times out a bind that gets no answer", async () => {
    const silent = smpp.createServer((session) => session.on("error", () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    const silentSender = sender({ url: `smpp://127.0.0.1:${port}`, timeoutMs: 300 });
    try {
      const error = await failure(silentSender.send(sms()));
      expect(isSmsUnavailable(error) && error.reason).toBe("timeout");
    } finally {
      await silentSender.close();
      for (const session of [...silent.sessions]) session.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("reports a refused bind, waits before trying again, then binds", async () => {
    const smppSender = sender();
    smsc.bindStatus = smpp.ESME_RINVPASWD;
    const first = await failure(smppSender.send(sms()));
    expect(isSmsUnavailable(first)).toBe(true);
    expect(first).toMatchObject({ reason: "bind-refused", commandStatus: smpp.ESME_RINVPASWD });
    expect(first.message).toBe("SMSC refused the bind: ESME_RINVPASWD");

    // Within the backoff: refused at once, without a new connection.
    smsc.bindStatus = 0;
    const second = await failure(smppSender.send(sms()));
    expect(second).toMatchObject({ reason: "bind-refused" });
    expect(second.message).toMatch(/next try in 1 s$/);
    expect(smsc.connections).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 250));
    await smppSender.send(sms());
    expect(smsc.connections).toBe(2);
    expect(smsc.submits).toHaveLength(1);
    const refused = logs.find((entry) => entry.line.msg === "smpp connection failed");
    expect(refused).toMatchObject({ level: "error", line: { reason: "bind-refused" } });
    expectLogsToKeepSecrets(CODE_TEXT);
  });

  it("reports an SMSC that cannot be reached as unavailable", async () => {
    const port = Number(new URL(smsc.url).port);
    await smsc.close();
    const smppSender = sender({ url: `smpp://127.0.0.1:${port}` });
    const error = await failure(smppSender.send(sms()));
    expect(isSmsUnavailable(error) && error.reason).toBe("connection");
    expect(error.message).toBe("SMPP connection failed: ECONNREFUSED");
    smsc = await startSmscStandIn();
  });

  it("refuses what it does not serve from the SMSC, and ignores an incoming SMS quietly", async () => {
    const smppSender = sender();
    await smppSender.verify();
    const answer = await smsc.dataSmFromServer();
    expect(answer).toMatchObject({ command: "data_sm_resp", command_status: smpp.ESME_RINVCMDID });
    const incoming = await smsc.incomingSmsFromServer("525512345678", "BAJA por favor gracias");
    expect(incoming).toMatchObject({ command: "deliver_sm_resp", command_status: 0 });
    expect(logs.map((entry) => entry.line.msg)).toContain("smpp incoming SMS ignored");
    expectLogsToKeepSecrets("BAJA por favor gracias");
    await smppSender.send(sms());
    expect(smsc.connections).toBe(1);
  });

  it("verifies by binding, and unbinds when closed", async () => {
    const smppSender = sender();
    await smppSender.verify();
    expect(smsc.binds).toHaveLength(1);
    await smppSender.close();
    await smsc.waitUntil(() => smsc.unbinds === 1, "the client's unbind");
    const error = await failure(smppSender.send(sms()));
    expect(isSmsUnavailable(error) && error.message).toBe("SMPP sender closed");
  });
});

/** A self-signed certificate for localhost, made with openssl; null when there is no openssl. */
function selfSignedCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(path.join(tmpdir(), "smsc-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"],
        ["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-days", "1"],
        ["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
      ].flat(),
      { stdio: "ignore" },
    );
    return {
      key: readFileSync(path.join(dir, "key.pem"), "utf8"),
      cert: readFileSync(path.join(dir, "cert.pem"), "utf8"),
    };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the SMPP sender over TLS (ssmpp://)", () => {
  const certificate = selfSignedCertificate();

  it.skipIf(!certificate)(
    "binds to an SMSC whose certificate it trusts, and only then",
    async () => {
      const tlsSmsc = await startSmscStandIn({ tls: certificate! });
      try {
        const untrusting = sender({ url: tlsSmsc.url });
        const error = await failure(untrusting.send(sms()));
        expect(isSmsUnavailable(error) && error.reason).toBe("connection");
        expect(error.message).toMatch(/SELF_SIGNED|self-signed/i);
        expect(tlsSmsc.binds).toEqual([]);

        const trusting = sender({ url: tlsSmsc.url, tls: { ca: certificate!.cert } });
        await trusting.send(sms("Tu código es 482913"));
        expect(tlsSmsc.submits).toEqual([
          expect.objectContaining({ dataCoding: 8, text: "Tu código es 482913" }),
        ]);
        await trusting.close();
        await tlsSmsc.waitUntil(() => tlsSmsc.unbinds === 1, "the client's unbind");
      } finally {
        await tlsSmsc.close();
      }
    },
  );
});

describe("the SMPP sender's options", () => {
  const valid: SmppSenderOptions = {
    url: "smpp://smsc.example.mx:2775",
    systemId: "conecta",
    password: "s3cr3t",
    sourceAddr: "ConectaMx",
    logger: { info() {}, warn() {}, error() {} } as never,
  };

  it("accepts the three forms of source address, with their TON and NPI", async () => {
    for (const [sourceAddr, ton, npi] of [
      ["ConectaMx", 5, 0],
      ["Conecta 24", 5, 0],
      ["2525", 3, 0],
      ["525512345678", 1, 1],
    ] as const) {
      const created = sender({ sourceAddr });
      await created.send(sms());
      expect(smsc.submits.at(-1), sourceAddr).toMatchObject({
        sourceAddr,
        sourceTon: ton,
        sourceNpi: npi,
      });
    }
  });

  it("refuses at start what no SMSC would take, without echoing the password", () => {
    const wrong: Array<[Partial<SmppSenderOptions>, RegExp]> = [
      [{ url: "http://smsc.example.mx" }, /smpp:\/\/host:port/],
      [{ url: "smpp://user:pw@smsc.example.mx" }, /credentials/],
      [{ url: "smsc.example.mx:2775" }, /smpp:\/\/host:port/],
      [{ systemId: "" }, /system id/],
      [{ systemId: "a".repeat(16) }, /system id/],
      [{ password: "muy-largo-9" }, /password/],
      [{ sourceAddr: "Conecta Movil MX" }, /source address/],
      [{ sourceAddr: "12" }, /source address/],
      [{ sourceAddr: "+525512345678" }, /source address/],
      [{ timeoutMs: 0 }, /timeoutMs/],
    ];
    for (const [change, message] of wrong) {
      expect(
        () => assertSmppSenderOptions({ ...valid, ...change }),
        JSON.stringify(change),
      ).toThrow(message);
    }
    expect(() => assertSmppSenderOptions({ ...valid, password: "muy-largo-9" })).not.toThrow(
      /muy-largo/,
    );
    expect(() =>
      assertSmppSenderOptions({ ...valid, url: "ssmpp://smsc.example.mx" }),
    ).not.toThrow();
  });
});

describe("a delivery receipt", () => {
  function receipt(fields: Partial<smpp.PDU>): smpp.PDU {
    return { esm_class: 4, ...fields } as smpp.PDU;
  }

  it("is read from its TLVs first, else from its text, and nothing odd is kept", () => {
    expect(
      readDeliveryReceipt(
        receipt({
          receipted_message_id: "1A2B3C",
          message_state: smpp.MESSAGE_STATE.UNDELIVERABLE,
          short_message: { message: "id:999 stat:DELIVRD" },
        }),
      ),
    ).toEqual({ messageId: "1A2B3C", stat: "UNDELIV" });
    expect(
      readDeliveryReceipt(
        receipt({
          short_message: {
            message:
              "id:0123456789 sub:001 dlvrd:000 submit date:2611241000 done date:2611241001 Stat:expired err:027 Text:Tu codigo",
          },
        }),
      ),
    ).toEqual({ messageId: "0123456789", stat: "EXPIRED" });
    expect(
      readDeliveryReceipt(receipt({ short_message: { message: "id:<script> stat:DELIVRD!!" } })),
    ).toEqual({ messageId: null, stat: null });
    expect(readDeliveryReceipt(receipt({}))).toEqual({ messageId: null, stat: null });
  });
});
