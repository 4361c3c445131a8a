import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cancelOrder, markOrderPaid } from "~/checkout/orders.server";
import { nowIso, type Db } from "~/db/db.server";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { cancelTopup, createTopup, markTopupPaid } from "~/topup/topups.server";
import { topupApplication } from "~/topup/topup-application.server";
import { findTopupAmount } from "~/topup/amounts";
import { createBssSimulator } from "~/line/simulator.server";
import { createLineJobs, queueLineJob, topupJobId } from "~/line/line-jobs.server";
import { topupOffer } from "~/line/line";
import { addDays, formatDate } from "~/lib/dates";
import { testIccid } from "../../tests/support/iccids";
import { composeMail, type ComposeDeps, type ComposeResult } from "./compose.server";
import type { MailData, MailTemplate } from "~/mail-queue/mail-queue.server";
import {
  collectingLogger,
  insertPortabilityRequest,
  insertVoucherPayment,
  openTestDatabase,
  placeTestOrder,
} from "../../tests/support/mail-fixtures";

let db: Db;
let deps: ComposeDeps;

beforeEach(async () => {
  db = await openTestDatabase();
  deps = {
    db,
    origin: "https://www.conectamovil.mx/",
    esim: createSandboxProvisioner({ secret: "s".repeat(40) }),
    logger: collectingLogger().logger,
  };
});
afterEach(async () => {
  await db.destroy();
});

function compose<T extends MailTemplate>(template: T, data: MailData[T]): Promise<ComposeResult> {
  return composeMail(deps, { template, data: JSON.stringify(data) });
}

async function ready<T extends MailTemplate>(template: T, data: MailData[T]) {
  const result = await compose(template, data);
  if (result.kind !== "ready") throw new Error(`expected an e-mail, got ${JSON.stringify(result)}`);
  return result.mail;
}

const inThreeDays = () => new Date(Date.now() + 72 * 3600_000).toISOString();

async function topup(status: "paid" | "cancelled" | "pending_payment" = "paid") {
  const created = await createTopup(db, {
    customerSub: null,
    email: "ana@example.com",
    idempotencyKey: crypto.randomUUID(),
    phoneNumber: "5587654321",
    amount: 100,
  });
  if (created.kind === "conflict") throw new Error("unexpected conflict");
  if (status === "paid") await markTopupPaid(db, created.topup.id, nowIso());
  if (status === "cancelled") await cancelTopup(db, created.topup.id, nowIso());
  return created.topup;
}

describe("composing a queued e-mail from what the database holds now", () => {
  it("an order received, with its links built on the configured origin", async () => {
    const order = await placeTestOrder(db);
    const mail = await ready("order_received", { orderRef: order.ref });
    expect(mail.subject).toBe(`Recibimos tu pedido ${order.folio}`);
    expect(mail.text).toContain(`https://www.conectamovil.mx/pedido?folio=${order.folio}`);
    expect(mail.text).toContain("Av. Insurgentes Sur 1234");
    expect(mail.text).not.toContain("ana.lopez@example.com");
  });

  it("an order paid by card names the card's brand and last four", async () => {
    const order = await placeTestOrder(db, { paid: true });
    await db
      .insertInto("payments")
      .values({
        id: "pay_card",
        purpose: "order",
        reference: order.ref,
        amount: order.total,
        currency: "MXN",
        status: "approved",
        provider: "sandbox",
        provider_reference: "chk_card",
        checkout_url: null,
        decline_reason: null,
        card_brand: "visa",
        card_last4: "4242",
        created_at: nowIso(),
        updated_at: nowIso(),
        settled_at: nowIso(),
        method: "card",
        instructions: null,
        instruction_reference: null,
        expires_at: null,
      })
      .execute();
    const mail = await ready("order_paid", { orderRef: order.ref });
    expect(mail.text).toContain("Pagado con Visa terminada en 4242.");
  });

  it("a cash voucher of an order, with its barcode", async () => {
    const order = await placeTestOrder(db);
    const paymentId = await insertVoucherPayment(db, {
      purpose: "order",
      reference: order.ref,
      amount: order.total,
      instructions: {
        method: "cash",
        reference: "93000000000018",
        expiresAt: inThreeDays(),
        hostedUrl: null,
      },
    });
    const mail = await ready("payment_voucher", {
      purpose: "order",
      reference: order.ref,
      paymentId,
    });
    expect(mail.subject).toBe(`Tu ficha para pagar en efectivo el pedido ${order.folio}`);
    expect(mail.text).toContain("Referencia: 93000000000018");
    expect(mail.text).toContain("Importe exacto: $150.00");
    expect(mail.attachments).toHaveLength(1);
  });

  it("a SPEI transfer of a top-up, with the masked line and the receipt's address", async () => {
    const pending = await topup("pending_payment");
    const paymentId = await insertVoucherPayment(db, {
      purpose: "topup",
      reference: pending.id,
      amount: pending.amount,
      instructions: {
        method: "spei",
        clabe: "646180123456789017",
        reference: "7654321",
        bank: "STP",
        beneficiary: "Conecta Móvil",
        expiresAt: inThreeDays(),
        hostedUrl: null,
      },
    });
    const mail = await ready("payment_voucher", {
      purpose: "topup",
      reference: pending.id,
      paymentId,
    });
    expect(mail.subject).toBe(`Datos de tu transferencia SPEI para la recarga ${pending.folio}`);
    expect(mail.text).toContain("55 •••• 4321");
    expect(mail.text).toContain(`https://www.conectamovil.mx/recarga/${pending.id}`);
  });

  it("an order shipped, with its carrier and tracking number", async () => {
    const order = await placeTestOrder(db, { paid: true });
    await db
      .updateTable("orders")
      .set({ shipped_at: nowIso(), carrier: "Estafeta", tracking_number: "EST123456789MX" })
      .where("id", "=", order.ref)
      .execute();
    const mail = await ready("order_shipped", { orderRef: order.ref });
    expect(mail.text).toContain("Paquetería: Estafeta");
    expect(mail.text).toContain("Número de guía: EST123456789MX");
  });

  it("a top-up receipt", async () => {
    const paid = await topup();
    const mail = await ready("topup_receipt", { topupId: paid.id });
    expect(mail.subject).toBe(`Comprobante de tu recarga ${paid.folio}`);
    expect(mail.text).toContain("Línea: 55 •••• 4321");
    expect(mail.text).not.toContain("5587654321");
  });

  it("a top-up receipt tells the line's vigencia as its page does, not the payment date plus the amount's days", async () => {
    // Issue 48: a Conecta 150 line (30 days) topped up with $100 the same day: the e-mail said the
    // payment date plus 100's days while the receipt page and the line said the BSS's date.
    const bss = createBssSimulator({ db });
    const { number } = await bss.activateLine({
      externalId: "receipt-vigencia",
      iccid: testIccid(4821),
      offerId: "conecta-150",
    });
    const created = await createTopup(db, {
      customerSub: null,
      email: "ana@example.com",
      idempotencyKey: crypto.randomUUID(),
      phoneNumber: number,
      amount: 100,
    });
    if (created.kind === "conflict") throw new Error("unexpected conflict");
    const paidAt = nowIso();
    await markTopupPaid(db, created.topup.id, paidAt);
    await queueLineJob(db, {
      id: topupJobId(created.topup.id),
      kind: "apply-topup",
      payload: {
        topupId: created.topup.id,
        number,
        amount: 100,
        offerId: topupOffer(100)!.offerId,
      },
      now: new Date(paidAt),
    });
    const lineJobs = createLineJobs({ db, bss, logger: collectingLogger().logger });
    deps = { ...deps, bss, runLineJob: (id) => lineJobs.runNow(id) };

    const mail = await ready("topup_receipt", { topupId: created.topup.id });
    const line = await bss.findLine(number);
    const vigencia = formatDate(line!.package!.endsAt);
    const naive = formatDate(addDays(paidAt, findTopupAmount(100)!.validityDays));
    expect(vigencia).not.toBe(naive);
    expect(mail.text).toContain(`Tu línea queda vigente hasta el ${vigencia}.`);
    expect(mail.text).not.toContain(naive);
    // The receipt page's own computation says the same date.
    const page = await topupApplication(
      { db, bss, logger: deps.logger },
      {
        ...created.topup,
        status: "paid",
        paidAt,
      },
    );
    expect(page).toMatchObject({ state: "applied", line: { validUntil: vigencia } });
  });

  it("a top-up receipt not yet applied says so, with no date", async () => {
    const paid = await topup();
    await queueLineJob(db, {
      id: topupJobId(paid.id),
      kind: "apply-topup",
      payload: { topupId: paid.id, number: paid.phoneNumber, amount: 100, offerId: "x" },
      now: new Date(),
    });
    const mail = await ready("topup_receipt", { topupId: paid.id });
    expect(mail.text).toContain("Tu recarga se está aplicando a tu línea.");
    expect(mail.text).not.toMatch(/[Vv]igente hasta/);
  });

  it("portability received and each later status", async () => {
    const received = await insertPortabilityRequest(db);
    expect((await ready("portability_received", { requestId: received })).text).toContain(
      "Estado: Recibida",
    );

    const scheduled = await insertPortabilityRequest(db, {
      status: "in_progress",
      scheduledFor: "2026-12-01",
    });
    expect(
      (await ready("portability_status", { requestId: scheduled, status: "in_progress" })).text,
    ).toContain("Estado: Programada para el 1 de diciembre de 2026");

    const rejected = await insertPortabilityRequest(db, {
      status: "rejected",
      rejectionReason: "El NIP no coincide.",
    });
    expect(
      (await ready("portability_status", { requestId: rejected, status: "rejected" })).text,
    ).toContain("Estado: Rechazada: El NIP no coincide.");

    const completed = await insertPortabilityRequest(db, { status: "completed" });
    expect(
      (await ready("portability_status", { requestId: completed, status: "completed" })).text,
    ).toContain("Estado: Completada");
  });
});

describe("an e-mail that cannot or should not be sent", () => {
  it("is a permanent failure when what it is about is gone or its data is not a template's", async () => {
    expect(await compose("order_received", { orderRef: "missing" })).toEqual({
      kind: "permanent",
      reason: "order not found",
    });
    expect(await compose("topup_receipt", { topupId: "missing" })).toMatchObject({
      kind: "permanent",
    });
    expect(await compose("portability_received", { requestId: "missing" })).toMatchObject({
      kind: "permanent",
    });
    expect(await composeMail(deps, { template: "order_paid", data: "{}" })).toMatchObject({
      kind: "permanent",
    });
    expect(await composeMail(deps, { template: "order_paid", data: "not json" })).toMatchObject({
      kind: "permanent",
    });
    expect(await composeMail(deps, { template: "newsletter", data: "{}" })).toMatchObject({
      kind: "permanent",
    });
    const physical = await placeTestOrder(db, { paid: true });
    expect(await compose("esim_activation", { orderRef: physical.ref })).toMatchObject({
      kind: "permanent",
    });
    expect(await compose("order_shipped", { orderRef: physical.ref })).toEqual({
      kind: "permanent",
      reason: "order not shipped",
    });
    const unpaid = await placeTestOrder(db);
    expect(await compose("order_paid", { orderRef: unpaid.ref })).toMatchObject({
      kind: "permanent",
    });
    const scheduledWithoutDate = await insertPortabilityRequest(db, { status: "in_progress" });
    expect(
      await compose("portability_status", {
        requestId: scheduledWithoutDate,
        status: "in_progress",
      }),
    ).toMatchObject({
      kind: "permanent",
    });
  });

  it("is obsolete when what it would say is no longer true", async () => {
    const cancelled = await placeTestOrder(db);
    await cancelOrder(db, cancelled.ref, nowIso());
    expect(await compose("order_received", { orderRef: cancelled.ref })).toEqual({
      kind: "obsolete",
      reason: "order cancelled",
    });

    const paid = await placeTestOrder(db);
    const paymentId = await insertVoucherPayment(db, {
      purpose: "order",
      reference: paid.ref,
      amount: paid.total,
      instructions: {
        method: "cash",
        reference: "93000000000026",
        expiresAt: inThreeDays(),
        hostedUrl: null,
      },
    });
    await markOrderPaid(db, paid.ref, nowIso());
    expect(
      await compose("payment_voucher", { purpose: "order", reference: paid.ref, paymentId }),
    ).toEqual({
      kind: "obsolete",
      reason: "order paid",
    });

    const lapsed = await placeTestOrder(db);
    const lapsedPayment = await insertVoucherPayment(db, {
      purpose: "order",
      reference: lapsed.ref,
      amount: lapsed.total,
      instructions: {
        method: "cash",
        reference: "93000000000034",
        expiresAt: new Date(Date.now() - 1000).toISOString(),
        hostedUrl: null,
      },
    });
    expect(
      await compose("payment_voucher", {
        purpose: "order",
        reference: lapsed.ref,
        paymentId: lapsedPayment,
      }),
    ).toEqual({
      kind: "obsolete",
      reason: "voucher expired",
    });

    const cancelledTopup = await topup("cancelled");
    expect(await compose("topup_receipt", { topupId: cancelledTopup.id })).toMatchObject({
      kind: "obsolete",
    });

    const movedOn = await insertPortabilityRequest(db, {
      status: "completed",
      scheduledFor: "2026-12-01",
    });
    expect(
      await compose("portability_status", { requestId: movedOn, status: "in_progress" }),
    ).toEqual({
      kind: "obsolete",
      reason: "request now completed",
    });
  });

  it("is a permanent failure when the voucher's payment belongs to something else", async () => {
    const order = await placeTestOrder(db);
    const other = await placeTestOrder(db);
    const paymentId = await insertVoucherPayment(db, {
      purpose: "order",
      reference: other.ref,
      amount: other.total,
      instructions: {
        method: "cash",
        reference: "93000000000042",
        expiresAt: inThreeDays(),
        hostedUrl: null,
      },
    });
    expect(
      await compose("payment_voucher", { purpose: "order", reference: order.ref, paymentId }),
    ).toEqual({
      kind: "permanent",
      reason: "payment not found",
    });
  });
});
