import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { composeMail } from "~/mail/compose.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { buildCfdi } from "./cfdi";
import {
  cancelInvoice,
  claimInvoice,
  findInvoiceOfPurchase,
  findInvoiceProfile,
  recordIssued,
  releaseClaim,
  STALE_CLAIM_MS,
  type ClaimInput,
  type InvoiceClaim,
} from "./invoices.server";
import type { Purchase } from "./purchases.server";
import { createSandboxPac } from "./sandbox-pac.server";

let db: Db;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
});

afterEach(async () => {
  await db.destroy();
});

let sequence = 0;
function purchase(): Purchase {
  sequence += 1;
  return {
    kind: "topup",
    ref: `topup-ref-${sequence}-${Math.random().toString(36).slice(2)}`,
    folio: `REC-2026-${String(sequence).padStart(6, "0")}`,
    status: "paid",
    paidAt: "2026-11-20T18:00:00.000Z",
    email: "ana@example.com",
    customerSub: null,
    total: 200,
    items: [{ sku: "recarga-200", description: "Recarga", quantity: 1, unitPrice: 200 }],
    payment: { method: "spei", cardBrand: null, cardLast4: null },
  };
}

const FISCAL = {
  rfc: "GOMA850312AB0",
  kind: "fisica" as const,
  name: "Ana Gómez Martínez",
  regimen: "612" as const,
  postalCode: "03100",
  uso: "G03" as const,
  email: "ana@example.com",
  cardKind: null,
};

const input = (bought: Purchase, accountSub: string | null = null): ClaimInput => ({
  purchase: bought,
  fiscal: FISCAL,
  formaPago: "03",
  accountSub,
});

async function issue(claim: InvoiceClaim, bought: Purchase, accountSub: string | null = null) {
  const cfdi = buildCfdi({
    series: "FAC",
    folio: claim.invoice.folio.slice(4),
    issuedAt: new Date().toISOString(),
    issuer: {
      rfc: "EKU9003173C9",
      name: "ESCUELA KEMPER URGATE",
      regimen: "601",
      postalCode: "42501",
    },
    receiver: { ...FISCAL, postalCode: FISCAL.postalCode },
    formaPago: "03",
    items: bought.items,
  });
  const stamped = await createSandboxPac().stamp({
    cfdi,
    items: bought.items,
    idempotencyKey: claim.idempotencyKey,
    resuming: claim.resuming,
  });
  return {
    stamped,
    recorded: await recordIssued(db, claim, { cfdi, stamped, saveProfileFor: accountSub }),
  };
}

function claimed(result: Awaited<ReturnType<typeof claimInvoice>>): InvoiceClaim {
  if (result.kind !== "claimed") throw new Error(`expected a claim, got ${result.kind}`);
  return result.claim;
}

describe("one invoice per payment", () => {
  it("lets one of many simultaneous requests claim the payment; the others wait for its invoice", async () => {
    const bought = purchase();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => claimInvoice(db, input(bought))),
    );
    expect(results.filter((result) => result.kind === "claimed")).toHaveLength(1);
    expect(results.filter((result) => result.kind === "busy")).toHaveLength(7);
    const rows = await db.selectFrom("invoices").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      state: "stamping",
      attempt: 1,
      folio: expect.stringMatching(/^FAC-\d{4}-\d{6}$/),
    });
  });

  it("answers an issued payment with the same invoice, whatever is asked, with one e-mail", async () => {
    const bought = purchase();
    const claim = claimed(await claimInvoice(db, input(bought)));
    const { stamped, recorded } = await issue(claim, bought, "sub-ana");
    expect(recorded).toBe(true);
    const again = await claimInvoice(db, {
      ...input(bought),
      fiscal: { ...FISCAL, rfc: "CACX7605101P8" },
    });
    expect(again.kind).toBe("issued");
    expect(again.kind === "issued" && again.invoice.uuid).toBe(stamped.uuid);
    const invoice = await findInvoiceOfPurchase(db, bought);
    expect(invoice).toMatchObject({
      state: "issued",
      uuid: stamped.uuid,
      total: "200.00",
      subtotal: "172.41",
      totalTax: "27.59",
      receiver: { rfc: FISCAL.rfc, regimen: "612" },
    });
    expect(invoice!.xml).toContain(stamped.uuid);
    const mails = await db
      .selectFrom("mail_queue")
      .selectAll()
      .where("template", "=", "invoice_issued")
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: "ana@example.com" });
    expect(JSON.parse(mails[0].data)).toEqual({ invoiceId: invoice!.id });
    // The e-mail, as the mailer writes it: the XML as stamped and the PDF printed from it, attached.
    const composed = await composeMail(
      {
        db,
        origin: "https://tienda.example.mx",
        esim: createSandboxProvisioner({ secret: "s".repeat(40) }),
        logger: { warn: () => undefined },
      },
      mails[0],
    );
    if (composed.kind !== "ready") throw new Error(`not composed: ${composed.kind}`);
    expect(composed.mail.subject).toBe(`Tu factura ${invoice!.folio} de la compra ${bought.folio}`);
    const [xmlFile, pdfFile] = composed.mail.attachments!;
    expect(xmlFile).toMatchObject({
      filename: `factura-${invoice!.folio}.xml`,
      contentType: "application/xml",
    });
    expect(xmlFile.content.toString("utf8")).toBe(invoice!.xml);
    expect(pdfFile).toMatchObject({
      filename: `factura-${invoice!.folio}.pdf`,
      contentType: "application/pdf",
    });
    expect(pdfFile.content.subarray(0, 5).toString()).toBe("%PDF-");
    // Saved for the account's next invoice.
    expect(await findInvoiceProfile(db, "sub-ana")).toEqual({
      rfc: FISCAL.rfc,
      name: FISCAL.name,
      regimen: "612",
      postalCode: "03100",
      uso: "G03",
      email: "ana@example.com",
    });
  });

  it("after the PAC refused, asks again as a new request; after no answer, under the same key, looking for it first", async () => {
    const bought = purchase();
    const first = claimed(await claimInvoice(db, input(bought)));
    expect(first).toMatchObject({ idempotencyKey: `${first.invoice.id}-1`, resuming: false });
    await releaseClaim(db, first, "sandbox:legal_name_mismatch");
    const second = claimed(await claimInvoice(db, input(bought)));
    expect(second).toMatchObject({ idempotencyKey: `${first.invoice.id}-2`, resuming: false });
    await releaseClaim(db, second, null);
    const third = claimed(await claimInvoice(db, input(bought)));
    expect(third).toMatchObject({ idempotencyKey: `${first.invoice.id}-2`, resuming: true });
  });

  it("takes over a claim its holder left (a process that died), which then records nothing", async () => {
    const bought = purchase();
    const start = new Date("2026-11-27T12:00:00Z");
    const dead = claimed(await claimInvoice(db, input(bought), start));
    expect((await claimInvoice(db, input(bought), new Date(start.getTime() + 1_000))).kind).toBe(
      "busy",
    );
    const later = new Date(start.getTime() + STALE_CLAIM_MS + 1);
    const taken = claimed(await claimInvoice(db, input(bought), later));
    expect(taken).toMatchObject({ idempotencyKey: dead.idempotencyKey, resuming: true });
    expect((await issue(dead, bought)).recorded).toBe(false);
    const { stamped, recorded } = await issue(taken, bought);
    expect(recorded).toBe(true);
    // The same key: the sandbox (as a PAC does) answers with the same invoice.
    expect((await findInvoiceOfPurchase(db, bought))!.uuid).toBe(stamped.uuid);
  });
});

describe("the operator's cancellation", () => {
  it("cancels with one of SAT's motives, 01 only with the UUID that replaces it, once", async () => {
    const bought = purchase();
    const claim = claimed(await claimInvoice(db, input(bought)));
    const { stamped } = await issue(claim, bought);
    const pac = createSandboxPac();
    const change = { substituteUuid: null, reason: "Datos equivocados", actor: "ops:ana" };
    expect(await cancelInvoice(db, pac, stamped.uuid, { ...change, motive: "01" })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
    expect(
      await cancelInvoice(db, pac, stamped.uuid, {
        ...change,
        motive: "02",
        substituteUuid: stamped.uuid,
      }),
    ).toMatchObject({ ok: false, code: "invalid_input" });
    const done = await cancelInvoice(db, pac, claim.invoice.folio.toLowerCase(), {
      ...change,
      motive: "02",
    });
    expect(done).toMatchObject({ ok: true, status: "accepted", invoice: { state: "cancelled" } });
    expect(await cancelInvoice(db, pac, stamped.uuid, { ...change, motive: "02" })).toMatchObject({
      ok: false,
      code: "wrong_status",
    });
    const audit = await db
      .selectFrom("status_changes")
      .selectAll()
      .where("subject", "=", "invoice")
      .execute();
    expect(audit).toMatchObject([
      {
        from_status: "issued",
        to_status: "cancelled",
        reason: "Datos equivocados",
        actor: "ops:ana",
      },
    ]);
    // Cancelled, the payment still has its (cancelled) invoice: asking again does not issue another.
    expect((await claimInvoice(db, input(bought))).kind).toBe("issued");
    expect(
      await cancelInvoice(db, pac, "FAC-2026-999999", { ...change, motive: "02" }),
    ).toMatchObject({
      ok: false,
      code: "not_found",
    });
  });
});
