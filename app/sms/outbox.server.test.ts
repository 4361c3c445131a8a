import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSmsOutbox, readSmsOutbox } from "./outbox.server";
import { isSmsRefused } from "./sender";

let dir: string;

beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), "sms-outbox-")), "sms-outbox");
});
afterEach(() => {
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

function clock(start = "2026-11-24T10:00:00.000Z") {
  let tick = Date.parse(start);
  return () => new Date((tick += 1000));
}

describe("the SMS outbox", () => {
  it("writes each SMS to its own file and reads them back newest first", async () => {
    const outbox = createSmsOutbox(dir, clock());
    expect(outbox.name).toBe("outbox");
    await outbox.send({ to: "5512345678", text: "Tu codigo es 111111", template: "line_code" });
    await outbox.send({ to: "3312345678", text: "Tu codigo es 222222", template: "line_code" });
    await outbox.send({
      to: "5512345678",
      text: "Tu código para consultar tu saldo es 333333",
      template: "balance_code",
    });

    const files = readdirSync(dir);
    expect(files.sort()).toEqual(
      [1, 2, 3].map((second) =>
        expect.stringMatching(
          new RegExp(`^2026-11-24T10-00-0${second}-000Z-[0-9a-f]{8}-[0-9a-f]{12}\\.json$`),
        ),
      ),
    );
    expect(files.some((file) => file.startsWith("."))).toBe(false);
    expect(statSync(path.join(dir, files[0])).mode & 0o077).toBe(0);

    const all = await readSmsOutbox(dir, { limit: 10 });
    expect(all.map((message) => message.text)).toEqual([
      "Tu código para consultar tu saldo es 333333",
      "Tu codigo es 222222",
      "Tu codigo es 111111",
    ]);
    expect(all[0]).toMatchObject({
      to: "5512345678",
      template: "balance_code",
      createdAt: "2026-11-24T10:00:03.000Z",
      encoding: "ucs2",
      length: 43,
      limit: 70,
    });
    expect(all[1]).toMatchObject({ encoding: "gsm7", length: 19, limit: 160 });

    const toOne = await readSmsOutbox(dir, { to: " 55 1234 5678 ", limit: 10 });
    expect(toOne.map((message) => message.template)).toEqual(["balance_code", "line_code"]);
    expect(await readSmsOutbox(dir, { limit: 1 })).toHaveLength(1);
    expect(await readSmsOutbox(dir, { to: "5500000000", limit: 10 })).toEqual([]);
  });

  it("keeps the text as written: accents, signs and line breaks", async () => {
    const outbox = createSmsOutbox(dir, clock());
    const text = "Recarga de $50 aplicada.\n¿Dudas? Escribe a ayuda@conecta.mx — ñandú";
    await outbox.send({ to: "5512345678", text, template: "topup_applied" });
    const [message] = await readSmsOutbox(dir, { limit: 1 });
    expect(message.text).toBe(text);
    expect(message.encoding).toBe("ucs2");
  });

  it("refuses what the SMSC would refuse, and writes nothing", async () => {
    const outbox = createSmsOutbox(dir, clock());
    const tooLong = "Tu código es 123456. ".repeat(4);
    const refusals = await Promise.all([
      outbox.send({ to: "5512345678", text: tooLong, template: "line_code" }).catch((e) => e),
      outbox.send({ to: "+525512345678", text: "Hola", template: "line_code" }).catch((e) => e),
      outbox.send({ to: "551234567", text: "Hola", template: "line_code" }).catch((e) => e),
    ]);
    expect(refusals.map((error) => isSmsRefused(error) && error.reason)).toEqual([
      "too-long",
      "invalid-number",
      "invalid-number",
    ]);
    expect(String(refusals[0].message)).toBe(
      'SMS "line_code" too long for one message: 84 of 70 (ucs2)',
    );
    expect(await readSmsOutbox(dir, { limit: 10 })).toEqual([]);
  });

  it("reads a missing directory as empty and skips a file that does not read", async () => {
    expect(await readSmsOutbox(dir, { limit: 10 })).toEqual([]);
    const outbox = createSmsOutbox(dir, clock());
    await outbox.send({ to: "5512345678", text: "Hola", template: "line_code" });
    writeFileSync(path.join(dir, "2026-11-24T11-00-00-000Z-broken.json"), "{not json");
    writeFileSync(path.join(dir, "notes.txt"), "not an SMS");
    const read = await readSmsOutbox(dir, { limit: 10 });
    expect(read.map((message) => message.text)).toEqual(["Hola"]);
  });
});
