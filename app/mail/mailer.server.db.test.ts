import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nowIso, type Db } from "~/db/db.server";
import { markOrderPaid } from "~/checkout/orders.server";
import { EsimProvisioningUnavailable, type EsimProvisioner } from "~/esim/provisioning";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { createMailer, type Mailer, type MailerOptions } from "./mailer.server";
import {
  collectingLogger,
  CUSTOMER_EMAIL,
  insertVoucherPayment,
  openTestDatabase,
  placeTestOrder,
} from "../../tests/support/mail-fixtures";
import { closedPort, startSmtpSink, type SmtpSink } from "../../tests/support/smtp-sink";
import { createSmtpTransport, type MailTransport } from "./transport.server";

const FROM = '"Conecta Móvil" <hola@conectamovil.mx>';
const ORIGIN = "https://www.conectamovil.mx";

let db: Db;
let smtp: SmtpSink | null;
let log: ReturnType<typeof collectingLogger>;
/** The mailer's clock: real time plus what a test skips ahead. */
let skippedMs = 0;
const clock = () => new Date(Date.now() + skippedMs);
const mailers: Mailer[] = [];
const sandboxEsim = createSandboxProvisioner({ secret: "s".repeat(40) });

beforeEach(async () => {
  db = await openTestDatabase();
  smtp = await startSmtpSink();
  log = collectingLogger();
  skippedMs = 0;
});
afterEach(async () => {
  await Promise.all(mailers.splice(0).map((mailer) => mailer.stop()));
  await smtp?.close();
  await db.destroy();
});

function mailer(options: Partial<MailerOptions> & { port?: number } = {}): Mailer {
  const created = createMailer({
    db,
    transport: createSmtpTransport(`smtp://127.0.0.1:${options.port ?? smtp!.port}`),
    from: FROM,
    origin: ORIGIN,
    esim: sandboxEsim,
    logger: log.logger,
    now: clock,
    ...options,
  });
  mailers.push(created);
  return created;
}

async function row(id?: string) {
  const query = db.selectFrom("mail_queue").selectAll();
  return (id ? query.where("id", "=", id) : query).executeTakeFirstOrThrow();
}

async function enqueueOrderReceived(orderRef: string, dedupeKey = `order-received:${orderRef}`) {
  return enqueueMail(db, {
    dedupeKey,
    to: CUSTOMER_EMAIL,
    template: "order_received",
    data: { orderRef },
  });
}

describe("the mailer over SMTP", () => {
  it("delivers an order's e-mails in Spanish, with a text and an HTML part", async () => {
    const order = await placeTestOrder(db, { items: [{ id: "conecta-150", quantity: 2 }] });
    await enqueueOrderReceived(order.ref);
    await markOrderPaid(db, order.ref, nowIso());
    await enqueueMail(db, {
      dedupeKey: `order-paid:${order.ref}`,
      to: CUSTOMER_EMAIL,
      template: "order_paid",
      data: { orderRef: order.ref },
    });

    const report = await mailer().deliverDue();

    expect(report).toEqual({ claimed: 2, sent: 2, retrying: 0, failed: 0 });
    const messages = await smtp!.parsed();
    expect(messages.map((message) => message.subject).sort()).toEqual([
      `Pago confirmado: tu pedido ${order.folio}`,
      `Recibimos tu pedido ${order.folio}`,
    ]);
    for (const message of messages) {
      expect(message.from?.value[0]).toEqual({
        address: "hola@conectamovil.mx",
        name: "Conecta Móvil",
      });
      expect(message.to && !Array.isArray(message.to) && message.to.value[0].address).toBe(
        CUSTOMER_EMAIL,
      );
      expect(message.text).toContain("Hola, Ana:");
      expect(message.text).toContain("2 × Conecta 150 ($150 c/u): $300");
      expect(message.html).toContain(order.folio);
      expect(message.html).toContain(`${ORIGIN}/pedido?folio=${order.folio}`);
      expect(message.messageId).toMatch(/^<mail-[\w-]+@conectamovil\.mx>$/);
    }
    const rows = await db.selectFrom("mail_queue").selectAll().execute();
    expect(rows.map((queued) => [queued.status, queued.attempts, queued.last_error])).toEqual([
      ["sent", 1, null],
      ["sent", 1, null],
    ]);
    expect(rows.every((queued) => queued.sent_at)).toBe(true);
    // Logs name the template and the row, never the address or the contents.
    const logged = log.text();
    expect(logged).toContain("order_received");
    expect(logged).toContain(rows[0].id);
    expect(logged).not.toContain(CUSTOMER_EMAIL);
    expect(logged).not.toContain(order.folio);
    expect(logged).not.toContain("Ana");
  });

  it("sends an eSIM's e-mail with a one-time link to its codes, never the codes", async () => {
    const order = await placeTestOrder(db, {
      simType: "esim",
      items: [{ id: "conecta-500", quantity: 2 }],
      paid: true,
    });
    await enqueueMail(db, {
      dedupeKey: `esim:${order.ref}`,
      to: CUSTOMER_EMAIL,
      template: "esim_activation",
      data: { orderRef: order.ref },
    });

    await mailer().deliverDue();

    const [message] = await smtp!.parsed();
    expect(message.subject).toBe(`Tus 2 eSIM están listas: pedido ${order.folio}`);
    expect(message.attachments).toHaveLength(0);
    // The codes were issued before the e-mail left (its link opens them), and are not in it.
    const stored = await db
      .selectFrom("esim_activations")
      .select("activation_code")
      .where("order_id", "=", order.ref)
      .execute();
    expect(stored).toHaveLength(2);
    for (const { activation_code } of stored) {
      expect(message.text).not.toContain(activation_code);
      expect(message.html || "").not.toContain(activation_code);
    }
    const token = /\/pedido\/abrir\?clave=([\w-]{43})/.exec(message.text ?? "")?.[1];
    expect(token).toBeTruthy();
    // What the database keeps of the link is its hash, not the link.
    const links = await db.selectFrom("order_links").selectAll().execute();
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ order_id: order.ref, purpose: "esim", used_at: null });
    expect(JSON.stringify(links)).not.toContain(token!);
  });

  it("keeps an e-mail the server refuses (451) and sends it once when the server takes it", async () => {
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);
    const sender = mailer();
    smtp!.refuse = true;

    const before = clock().getTime();
    expect(await sender.deliverDue()).toEqual({ claimed: 1, sent: 0, retrying: 1, failed: 0 });

    let queued = await row();
    expect(queued.status).toBe("pending");
    expect(queued.attempts).toBe(1);
    expect(Date.parse(queued.next_attempt_at) - before).toBeGreaterThanOrEqual(30_000);
    expect(Date.parse(queued.next_attempt_at) - before).toBeLessThan(35_000);
    expect(queued.last_error).toMatch(/^smtp .*451/);
    expect(queued.last_error).not.toContain(CUSTOMER_EMAIL);
    expect(queued.last_error).not.toContain("Servicio");
    expect(
      log.lines.some((entry) => entry.level === "warn" && entry.line.template === "order_received"),
    ).toBe(true);

    // Not due yet: nothing is tried before its time.
    smtp!.refuse = false;
    expect(await sender.deliverDue()).toEqual({ claimed: 0, sent: 0, retrying: 0, failed: 0 });
    expect(smtp!.raw).toHaveLength(0);

    skippedMs = 31_000;
    expect((await sender.deliverDue()).sent).toBe(1);
    expect((await sender.deliverDue()).claimed).toBe(0);
    queued = await row();
    expect([queued.status, queued.attempts, queued.last_error]).toEqual(["sent", 2, null]);
    expect(smtp!.raw).toHaveLength(1);
  });

  it("keeps an e-mail while the server is down and sends it once it is back", async () => {
    const port = await closedPort();
    await smtp!.close();
    smtp = null;
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);
    const sender = mailer({ port });

    expect((await sender.deliverDue()).retrying).toBe(1);
    const queued = await row();
    expect([queued.status, queued.attempts]).toEqual(["pending", 1]);
    expect(Date.parse(queued.next_attempt_at)).toBeGreaterThan(clock().getTime() + 25_000);
    expect(queued.last_error).toMatch(/^smtp E[A-Z]+/);

    smtp = await startSmtpSink(port);
    skippedMs = 31_000;
    expect((await sender.deliverDue()).sent).toBe(1);
    expect(await sender.deliverDue()).toEqual({ claimed: 0, sent: 0, retrying: 0, failed: 0 });
    expect(smtp.raw).toHaveLength(1);
  });

  it("backs off 30 s, 2 min, 10 min, 30 min, then hourly, and gives up after the last attempt", async () => {
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);
    smtp!.refuse = true;
    const sender = mailer({ maxAttempts: 7 });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      const report = await sender.deliverDue();
      const queued = await row();
      expect(queued.attempts).toBe(attempt);
      if (attempt < 7) {
        expect(report.retrying).toBe(1);
        waits.push(Math.round((Date.parse(queued.next_attempt_at) - clock().getTime()) / 1000));
        skippedMs += (waits.at(-1)! + 1) * 1000;
      } else {
        expect(report.failed).toBe(1);
        expect(queued.status).toBe("failed");
      }
    }
    expect(waits).toEqual([30, 120, 600, 1800, 3600, 3600]);
    const failure = log.lines.find((entry) => entry.level === "error");
    expect(failure?.line).toMatchObject({
      msg: "mail failed",
      template: "order_received",
      attempt: 7,
    });
    expect((await sender.stats()).failed).toBe(1);
  });

  it("sends an event enqueued twice once", async () => {
    const order = await placeTestOrder(db);
    expect(await enqueueOrderReceived(order.ref)).toBe(true);
    expect(await enqueueOrderReceived(order.ref)).toBe(false);

    await mailer().deliverDue();
    await mailer().deliverDue();

    expect(smtp!.raw).toHaveLength(1);
  });

  it("sends each e-mail once when two deliveries run at the same time", async () => {
    const orders = await Promise.all(Array.from({ length: 6 }, () => placeTestOrder(db)));
    for (const order of orders) await enqueueOrderReceived(order.ref);
    const first = mailer();
    const second = mailer();

    const reports = await Promise.all([
      first.deliverDue(10),
      second.deliverDue(10),
      first.deliverDue(10),
    ]);

    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(6);
    const subjects = (await smtp!.parsed()).map((message) => message.subject);
    expect(subjects).toHaveLength(6);
    expect(new Set(subjects).size).toBe(6);
    const rows = await db.selectFrom("mail_queue").select(["status", "attempts"]).execute();
    expect(rows.every((queued) => queued.status === "sent" && queued.attempts === 1)).toBe(true);
  });

  it("does not retry an e-mail about something that no longer exists", async () => {
    await enqueueMail(db, {
      dedupeKey: "order-paid:nope",
      to: CUSTOMER_EMAIL,
      template: "order_paid",
      data: { orderRef: "nope" },
    });
    const sender = mailer();

    expect((await sender.deliverDue()).failed).toBe(1);

    const queued = await row();
    expect([queued.status, queued.attempts, queued.last_error]).toEqual([
      "failed",
      1,
      "permanent: order not found",
    ]);
    expect(log.lines.find((entry) => entry.level === "error")?.line).toMatchObject({
      template: "order_paid",
      mailId: queued.id,
    });
    expect(smtp!.raw).toHaveLength(0);
  });

  it("retries an eSIM e-mail while the provisioner is out of reach", async () => {
    const order = await placeTestOrder(db, {
      simType: "esim",
      paid: true,
      items: [{ id: "conecta-200", quantity: 1 }],
    });
    await enqueueMail(db, {
      dedupeKey: `esim:${order.ref}`,
      to: CUSTOMER_EMAIL,
      template: "esim_activation",
      data: { orderRef: order.ref },
    });
    let reachable = false;
    const esim: EsimProvisioner = {
      ...sandboxEsim,
      name: "es2plus",
      issue: async (request) => {
        if (!reachable)
          throw new EsimProvisioningUnavailable("ES2+ DownloadOrder failed", { reason: "timeout" });
        return sandboxEsim.issue(request);
      },
    };
    const sender = mailer({ esim });

    expect((await sender.deliverDue()).retrying).toBe(1);
    const queued = await row();
    expect([queued.status, queued.attempts, queued.last_error]).toEqual([
      "pending",
      1,
      "compose: eSIM provisioner unavailable",
    ]);

    reachable = true;
    skippedMs = 31_000;
    expect((await sender.deliverDue()).sent).toBe(1);
    expect((await smtp!.parsed())[0].subject).toBe(`Tu eSIM está lista: pedido ${order.folio}`);
  });

  it("does not send a voucher already paid, and does not count it as a failure", async () => {
    const order = await placeTestOrder(db);
    const paymentId = await insertVoucherPayment(db, {
      purpose: "order",
      reference: order.ref,
      amount: order.total,
      status: "approved",
      instructions: {
        method: "cash",
        reference: "93000000000018",
        expiresAt: new Date(Date.now() + 72 * 3600_000).toISOString(),
        hostedUrl: null,
      },
    });
    await enqueueMail(db, {
      dedupeKey: `voucher:${paymentId}`,
      to: CUSTOMER_EMAIL,
      template: "payment_voucher",
      data: { purpose: "order", reference: order.ref, paymentId },
    });
    const sender = mailer();

    await sender.deliverDue();

    expect((await row()).last_error).toBe("obsolete: payment approved");
    expect(smtp!.raw).toHaveLength(0);
    expect(await sender.stats()).toEqual({ pending: 0, failed: 0, oldestPendingSeconds: 0 });
  });

  it("reports what waits and since when, for /readyz", async () => {
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);
    smtp!.refuse = true;
    const sender = mailer();
    await sender.deliverDue();
    skippedMs = 90_000;

    const stats = await sender.stats();

    expect(stats.pending).toBe(1);
    expect(stats.failed).toBe(0);
    expect(stats.oldestPendingSeconds).toBeGreaterThanOrEqual(90);
    expect(stats.oldestPendingSeconds).toBeLessThan(100);
  });
});

describe("the mailer in the background", () => {
  it("delivers soon after a nudge, without waiting for the interval", async () => {
    const sender = mailer();
    sender.start(60 * 60_000);
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);

    sender.nudge();

    await expect.poll(() => smtp!.raw.length, { timeout: 3_000 }).toBe(1);
    await sender.stop();
    expect((await row()).status).toBe("sent");
  });

  it("delivers on its interval, and what was due when it started", async () => {
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);
    const sender = mailer();

    sender.start(200);
    await expect.poll(() => smtp!.raw.length, { timeout: 3_000 }).toBe(1);

    await enqueueOrderReceived((await placeTestOrder(db)).ref);
    await expect.poll(() => smtp!.raw.length, { timeout: 3_000 }).toBe(2);
  });

  it("stops only once the e-mail being sent is done, and sends nothing after", async () => {
    let release!: () => void;
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    const sent: string[] = [];
    const slow: MailTransport = {
      name: "slow",
      async send(message) {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        sent.push(message.meta.mailId);
      },
    };
    const order = await placeTestOrder(db);
    await enqueueOrderReceived(order.ref);
    const sender = mailer({ transport: slow });
    sender.start(60 * 60_000);
    await sending;

    let stopped = false;
    const stopping = sender.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(sent).toHaveLength(1);
    expect((await row()).status).toBe("sent");
    await enqueueOrderReceived((await placeTestOrder(db)).ref);
    sender.nudge();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(1);
  });
});
