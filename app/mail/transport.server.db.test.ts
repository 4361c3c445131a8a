import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { createMailer } from "./mailer.server";
import {
  collectingLogger,
  CUSTOMER_EMAIL,
  openTestDatabase,
  placeTestOrder,
} from "../../tests/support/mail-fixtures";
import {
  createOutboxTransport,
  createSmtpTransport,
  outboxHtmlWithImages,
  readOutbox,
  type OutgoingMail,
} from "./transport.server";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "outbox-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function message(to: string, subject: string, extra: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    from: '"Conecta Móvil" <hola@conectamovil.mx>',
    to,
    subject,
    text: `Texto de ${subject}`,
    html: `<p>${subject}</p>`,
    messageId: `<mail-${subject.replace(/\W/g, "")}@conectamovil.mx>`,
    meta: { mailId: subject.replace(/\W/g, ""), template: "order_received" },
    ...extra,
  };
}

describe("the development outbox", () => {
  it("writes each e-mail to its own file and reads them back newest first", async () => {
    let tick = Date.parse("2026-11-24T10:00:00.000Z");
    const transport = createOutboxTransport(path.join(dir, "mail"), () => new Date((tick += 1000)));
    await transport.send(message("ana@example.com", "Primero"));
    await transport.send(message("luis@example.com", "Segundo"));
    await transport.send(message("Ana@Example.com", "Tercero"));

    const files = readdirSync(path.join(dir, "mail"));
    expect(files).toHaveLength(3);
    expect(files.sort()).toEqual(
      [1, 2, 3].map((second) =>
        expect.stringMatching(
          new RegExp(`^2026-11-24T10-00-0${second}-000Z-[0-9a-f]{8}-[0-9a-f]{12}\\.json$`),
        ),
      ),
    );
    expect(files.some((file) => file.startsWith("."))).toBe(false);

    const all = await readOutbox(path.join(dir, "mail"), { limit: 10 });
    expect(all.map((read) => read.subject)).toEqual(["Tercero", "Segundo", "Primero"]);
    expect(all[0]).toMatchObject({
      to: "Ana@Example.com",
      text: "Texto de Tercero",
      html: "<p>Tercero</p>",
      template: "order_received",
      mailId: "Tercero",
      createdAt: "2026-11-24T10:00:03.000Z",
    });

    const ana = await readOutbox(path.join(dir, "mail"), { to: "ana@example.com", limit: 10 });
    expect(ana.map((read) => read.subject)).toEqual(["Tercero", "Primero"]);
    expect(await readOutbox(path.join(dir, "mail"), { limit: 1 })).toHaveLength(1);
  });

  it("keeps inline images, shown in place for the development page", async () => {
    const transport = createOutboxTransport(dir);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await transport.send(
      message("ana@example.com", "Con QR", {
        html: '<img src="cid:esim-1.PED@conectamovil.mx" alt="QR">',
        attachments: [
          {
            filename: "esim-1.png",
            contentType: "image/png",
            content: png,
            cid: "esim-1.PED@conectamovil.mx",
          },
        ],
      }),
    );
    const [stored] = await readOutbox(dir, { limit: 1 });
    expect(stored.attachments).toEqual([
      {
        filename: "esim-1.png",
        contentType: "image/png",
        cid: "esim-1.PED@conectamovil.mx",
        content: png.toString("base64"),
      },
    ]);
    expect(outboxHtmlWithImages(stored)).toBe(
      `<img src="data:image/png;base64,${png.toString("base64")}" alt="QR">`,
    );
  });

  it("reads a missing directory as empty and skips what is not an e-mail", async () => {
    expect(await readOutbox(path.join(dir, "nothing-yet"), { limit: 5 })).toEqual([]);
    writeFileSync(path.join(dir, "2026-11-24T10-00-00-000Z-abc.json"), "{ half a mess");
    writeFileSync(path.join(dir, ".2026-11-24T10-00-00-000Z-def.tmp"), "{}");
    writeFileSync(path.join(dir, "notes.txt"), "hola");
    expect(await readOutbox(dir, { limit: 5 })).toEqual([]);
  });

  it("is where the mailer delivers by default", async () => {
    const db = await openTestDatabase();
    try {
      const order = await placeTestOrder(db);
      await enqueueMail(db, {
        dedupeKey: `order-received:${order.ref}`,
        to: CUSTOMER_EMAIL,
        template: "order_received",
        data: { orderRef: order.ref },
      });
      const mailer = createMailer({
        db,
        transport: createOutboxTransport(dir),
        from: '"Conecta Móvil" <hola@conectamovil.mx>',
        origin: "http://localhost:3000",
        esim: createSandboxProvisioner({ secret: "s".repeat(40) }),
        logger: collectingLogger().logger,
      });
      expect((await mailer.deliverDue()).sent).toBe(1);
      const [stored] = await readOutbox(dir, { to: CUSTOMER_EMAIL, limit: 5 });
      expect(stored.subject).toBe(`Recibimos tu pedido ${order.folio}`);
      expect(stored.text).toContain(`http://localhost:3000/pedido?folio=${order.folio}`);
    } finally {
      await db.destroy();
    }
  });
});

describe("the SMTP transport", () => {
  it("logs in with the user and password of SMTP_URL, and verifies the server", async () => {
    const logins: Array<{ username?: string | null; password?: string | null }> = [];
    const received: Buffer[] = [];
    const server = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      disableReverseLookup: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password });
        if (auth.username === "tienda" && auth.password === "s3creto/%")
          callback(null, { user: "tienda" });
        else callback(new Error("Credenciales inválidas"));
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.server.address() as AddressInfo;
    try {
      const transport = createSmtpTransport(
        `smtp://tienda:${encodeURIComponent("s3creto/%")}@127.0.0.1:${port}`,
      );
      await transport.verify!();
      await transport.send(message("ana@example.com", "Hola"));
      expect(logins.at(-1)).toEqual({ username: "tienda", password: "s3creto/%" });
      const parsed = await simpleParser(received[0]);
      expect(parsed.subject).toBe("Hola");
      expect(parsed.messageId).toBe("<mail-Hola@conectamovil.mx>");

      const wrong = createSmtpTransport(`smtp://tienda:otra@127.0.0.1:${port}`);
      await expect(wrong.verify!()).rejects.toMatchObject({ code: "EAUTH" });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
