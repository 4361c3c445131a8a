import { describe, expect, it } from "vitest";
import { formatDateTime } from "~/lib/dates";
import { ACCOUNT_SECURITY_CHANGES, type MailTemplate } from "~/mail-queue/mail-queue.server";
import {
  mailTemplates,
  renderMail,
  type AutoTopupMailView,
  type MailContext,
  type MailModels,
  type OrderView,
  type RenderedMail,
} from "./templates";

const context: MailContext = {
  origin: "https://www.conectamovil.mx",
  support: { email: "hola@conectamovil.mx", whatsappUrl: "https://wa.me/525500001111" },
};

const HOSTILE = `<script>alert("x")</script> & 'co'`;

const autoTopupView: AutoTopupMailView = {
  phoneNumber: "5599000001",
  amount: 150,
  trigger: "expiry",
  thresholdMb: null,
  monthlyMax: 2,
  card: { brand: "visa", last4: "4242" },
  settingsPath: "/my-account/lineas",
};

const physicalOrder: OrderView = {
  folio: "PED-2026-000123",
  customerName: "Ana López",
  status: "pending_payment",
  simType: "physical",
  lines: [
    { planName: "Conecta 150", quantity: 2, unitPrice: 150, lineTotal: 300 },
    { planName: "Conecta 500", quantity: 1, unitPrice: 500, lineTotal: 500 },
  ],
  total: 800,
  delivery: {
    street: "Av. Insurgentes Sur",
    exteriorNumber: "1234",
    interiorNumber: "5B",
    neighborhood: "Del Valle",
    postalCode: "03100",
    municipality: "Benito Juárez",
    state: "CMX",
  },
};

const esimOrder: OrderView = {
  ...physicalOrder,
  folio: "PED-2026-000124",
  status: "paid",
  simType: "esim",
  lines: [{ planName: "Conecta 500", quantity: 2, unitPrice: 500, lineTotal: 1000 }],
  total: 1000,
  delivery: null,
};

const link = { token: "k".repeat(43), expiresAt: "2026-11-25T18:30:00.000Z" };

const invoiceModel: MailModels["invoice_issued"] = {
  folio: "FAC-2026-000007",
  uuid: "3C8F1D2A-1B2C-4D5E-8F90-123456789ABC",
  purchase: { kind: "topup", ref: "r".repeat(22), folio: "REC-2026-000045" },
  receiverName: "Comercializadora del Norte",
  receiverRfcMasked: "CNO0••••••B1",
  total: "200.00",
  issuedAt: "2026-03-03T20:05:00.000Z",
  sandbox: true,
  xml: "<cfdi:Comprobante/>",
  pdf: Buffer.from("%PDF-1.3 sample"),
};

/** One model per template and variant: every one is rendered by every check below. */
const samples: Array<
  { [T in MailTemplate]: { name: string; template: T; model: MailModels[T] } }[MailTemplate]
> = [
  { name: "order received, physical", template: "order_received", model: { order: physicalOrder } },
  {
    name: "order received, eSIM",
    template: "order_received",
    model: { order: { ...esimOrder, status: "pending_payment" } },
  },
  {
    name: "cash voucher for an order",
    template: "payment_voucher",
    model: {
      amount: 800,
      instructions: {
        method: "cash",
        reference: "93000000000018",
        expiresAt: "2026-11-27T18:00:00.000Z",
        hostedUrl: null,
      },
      subject: { kind: "order", folio: physicalOrder.folio, customerName: "Ana López" },
    },
  },
  {
    name: "SPEI transfer for a top-up",
    template: "payment_voucher",
    model: {
      amount: 100,
      instructions: {
        method: "spei",
        clabe: "646180123456789017",
        reference: "1234567",
        bank: "STP",
        beneficiary: "Conecta Móvil Telecomunicaciones",
        expiresAt: "2026-11-27T18:00:00.000Z",
        hostedUrl: "https://pagos.example.com/instrucciones/abc",
      },
      subject: {
        kind: "topup",
        id: "tp_abc123",
        folio: "REC-2026-000042",
        phoneNumber: "5512345678",
      },
    },
  },
  {
    name: "order paid by card",
    template: "order_paid",
    model: {
      order: { ...physicalOrder, status: "paid" },
      paidWith: { method: "card", cardBrand: "visa", cardLast4: "4242" },
    },
  },
  {
    name: "eSIM order paid by SPEI",
    template: "order_paid",
    model: { order: esimOrder, paidWith: { method: "spei", cardBrand: null, cardLast4: null } },
  },
  {
    name: "two eSIMs",
    template: "esim_activation",
    model: { order: esimOrder, count: 2, link },
  },
  {
    name: "one eSIM",
    template: "esim_activation",
    model: {
      order: {
        ...esimOrder,
        lines: [{ planName: "Conecta 200", quantity: 1, unitPrice: 200, lineTotal: 200 }],
        total: 200,
      },
      count: 1,
      link,
    },
  },
  {
    name: "order link",
    template: "order_link",
    model: { order: { folio: "PED-2026-000124", customerName: "Ana López" }, link },
  },
  {
    name: "order shipped",
    template: "order_shipped",
    model: {
      order: { ...physicalOrder, status: "paid" },
      carrier: "Estafeta",
      trackingNumber: "1234567890",
      shippedAt: "2026-11-25T16:00:00.000Z",
    },
  },
  {
    name: "top-up receipt",
    template: "topup_receipt",
    model: {
      id: "tp_abc123",
      folio: "REC-2026-000042",
      phoneNumber: "5512345678",
      amount: 100,
      paidAt: "2026-11-24T18:30:00.000Z",
      paidWith: { method: "card", cardBrand: "mastercard", cardLast4: "4444" },
      automatic: null,
      application: { state: "applied", validUntil: "6 de enero de 2027" },
    },
  },
  {
    name: "top-up receipt of a one-day bundle",
    template: "topup_receipt",
    model: {
      id: "tp_def456",
      folio: "REC-2026-000043",
      phoneNumber: "3312345678",
      amount: 20,
      paidAt: "2026-11-24T18:30:00.000Z",
      paidWith: null,
      automatic: { settingsPath: "/my-account/lineas" },
      application: { state: "pending", validUntil: null },
    },
  },
  {
    name: "portability received",
    template: "portability_received",
    model: {
      folio: "POR-2026-000007",
      fullName: "Luis Pérez",
      phoneNumber: "8112345678",
      currentCarrier: "telcel",
      createdAt: "2026-11-24T18:30:00.000Z",
    },
  },
  {
    name: "portability scheduled",
    template: "portability_status",
    model: {
      folio: "POR-2026-000007",
      fullName: "Luis Pérez",
      phoneNumber: "8112345678",
      change: { status: "in_progress", scheduledFor: "2026-12-01" },
    },
  },
  {
    name: "portability completed",
    template: "portability_status",
    model: {
      folio: "POR-2026-000007",
      fullName: "Luis Pérez",
      phoneNumber: "8112345678",
      change: { status: "completed" },
    },
  },
  {
    name: "portability rejected",
    template: "portability_status",
    model: {
      folio: "POR-2026-000007",
      fullName: "Luis Pérez",
      phoneNumber: "8112345678",
      change: { status: "rejected", reason: "El NIP venció antes de la portabilidad." },
    },
  },
  {
    name: "line running out of data",
    template: "line_running_out",
    model: {
      phoneNumber: "5599000001",
      reason: "data",
      packageName: "Conecta 200",
      endsAt: "2026-12-20T18:00:00.000Z",
      daysLeft: 25,
      data: { remainingMb: 300, totalMb: 4096 },
    },
  },
  {
    name: "line's vigencia ending",
    template: "line_running_out",
    model: {
      phoneNumber: "5599000001",
      reason: "ending",
      packageName: "Recarga 50",
      endsAt: "2026-11-26T18:00:00.000Z",
      daysLeft: 1,
      data: null,
    },
  },
  {
    name: "line registered to its holder",
    template: "line_registered",
    model: {
      folio: "VIN-2026-000042",
      phoneNumber: "5599000001",
      holderName: "Ana Gómez Martínez",
      holderKeyMasked: "GOMA••••••••••••07",
      registeredAt: "2026-03-03T20:05:00.000Z",
    },
  },
  {
    name: "a line registered to a person who had lines, to their contact",
    template: "registration_notice",
    model: {
      phoneNumber: "5599000001",
      registeredAt: "2026-03-03T20:05:00.000Z",
      disputePath: "/no-fui-yo/0123456789abcdef0123456789abcdef",
    },
  },
  {
    name: "automatic top-up coming at the package's end",
    template: "auto_topup_notice",
    model: {
      autoTopup: autoTopupView,
      reason: "ending",
      chargeAt: "2026-11-26T17:00:00.000Z",
      endsAt: "2026-11-26T18:00:00.000Z",
    },
  },
  {
    name: "automatic top-up made for low data",
    template: "auto_topup_notice",
    model: {
      autoTopup: { ...autoTopupView, trigger: "low_data", thresholdMb: 1024 },
      reason: "data",
      chargeAt: "2026-11-25T17:00:00.000Z",
      endsAt: "2026-12-20T18:00:00.000Z",
    },
  },
  {
    name: "automatic top-up declined, tried again",
    template: "auto_topup_declined",
    model: {
      autoTopup: autoTopupView,
      declineReason: "insufficient_funds",
      retryAt: "2026-11-25T23:00:00.000Z",
      stopped: false,
      topupId: "tp_auto1",
    },
  },
  {
    name: "automatic top-up stopped after two declines",
    template: "auto_topup_declined",
    model: {
      autoTopup: autoTopupView,
      declineReason: "card_declined",
      retryAt: null,
      stopped: true,
      topupId: "tp_auto1",
    },
  },
  {
    name: "automatic top-up the bank wants authenticated",
    template: "auto_topup_action_required",
    model: { autoTopup: autoTopupView, topupId: "tp_auto2" },
  },
  {
    name: "automatic top-up past the month's cap",
    template: "auto_topup_cap",
    model: { autoTopup: autoTopupView, chargedThisMonth: 2 },
  },
  {
    name: "invoice issued, sandbox",
    template: "invoice_issued",
    model: invoiceModel,
  },
  ...ACCOUNT_SECURITY_CHANGES.map((change) => ({
    name: `account security change: ${change}`,
    template: "account_security" as const,
    model: { change, at: "2026-12-07T21:00:00.000Z" },
  })),
];

function render<T extends MailTemplate>(sample: { template: T; model: MailModels[T] }) {
  return renderMail(sample.template, sample.model, context);
}

/** The words a customer would see, without tags, styles or addresses. */
function visibleText(html: string): string {
  return html
    .replace(/<head>[\s\S]*?<\/head>/, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z#0-9]+;/g, " ");
}

const ENGLISH =
  /\b(the|and|your|you|order|payment|receipt|thanks?|please|click|here|shipped|shipping|tracking|status|number|dear|hello|amount|date|reference|expires?|activation|code|line|request|received|completed|rejected|scheduled|voucher|transfer)\b/i;

describe("every e-mail template", () => {
  it("has a sample here", () => {
    const covered = new Set(samples.map((sample) => sample.template));
    expect([...covered].sort()).toEqual(Object.keys(mailTemplates).sort());
  });

  for (const sample of samples) {
    describe(sample.name, () => {
      let mail: RenderedMail;
      const rendered = async () => (mail ??= await render(sample));

      it("renders a subject, a plain-text part and an HTML part", async () => {
        const { subject, text, html } = await rendered();
        expect(subject.length).toBeGreaterThan(10);
        expect(subject).not.toMatch(/\n/);
        expect(text.length).toBeGreaterThan(100);
        expect(html).toMatch(/^<!DOCTYPE html><html lang="es-MX">/);
        expect(html).toContain('name="viewport"');
        expect(html).toContain("max-width:600px");
      });

      it("opens with the logo as a PNG of the store's own address, named in its alt text", async () => {
        const { html, text } = await rendered();
        expect(html).toContain(
          '<img src="https://www.conectamovil.mx/brand/logo-email.png" width="224" height="48" alt="Conecta Móvil"',
        );
        expect(text.startsWith("Conecta Móvil\n")).toBe(true);
      });

      it("is in Spanish, with no key, undefined, null or NaN left in it", async () => {
        const { subject, text, html } = await rendered();
        for (const part of [subject, text, visibleText(html)]) {
          expect(part).not.toMatch(/undefined|null|NaN|\[object /);
          expect(part).not.toMatch(ENGLISH);
          // A missing message would show its key, e.g. "orderPaid.lead".
          expect(part).not.toMatch(/\b[a-z]+[A-Z]\w*\.\w+/);
        }
      });

      it("says in the text what it shows in the HTML", async () => {
        const { text, html } = await rendered();
        const htmlWords = visibleText(html)
          .split(/\s+/)
          .filter((word) => /\p{L}{4,}/u.test(word));
        const textWords = new Set(text.split(/\s+/));
        const missing = htmlWords.filter(
          (word) => !textWords.has(word) && !text.includes(word.replace(/[.,:;]$/, "")),
        );
        expect(missing).toEqual([]);
      });

      it("links only to the store's pages over https, never with an e-mail address", async () => {
        const { html, text } = await rendered();
        const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
        for (const href of hrefs) {
          expect(href).toMatch(/^https:\/\//);
          expect(href).not.toContain("@");
          expect(text).toContain(href.replace(/&amp;/g, "&"));
        }
      });

      it("references each inline image it attaches", async () => {
        const { html, attachments = [] } = await rendered();
        // Files to keep (an invoice's XML and PDF) are attachments, not images in the text.
        const inline = attachments.filter((attachment) => attachment.cid !== undefined);
        const cids = [...html.matchAll(/src="cid:([^"]+)"/g)].map((match) => match[1]);
        expect(cids.sort()).toEqual(inline.map((attachment) => attachment.cid).sort());
        for (const attachment of inline) {
          expect(attachment.contentType).toBe("image/png");
          expect(attachment.content.subarray(1, 4).toString()).toBe("PNG");
        }
      });
    });
  }
});

describe("what each e-mail says", () => {
  it("an automatic top-up: before the charge, what, when and with which card, masked", async () => {
    const { subject, text } = await renderMail(
      "auto_topup_notice",
      {
        autoTopup: autoTopupView,
        reason: "ending",
        chargeAt: "2026-11-26T17:00:00.000Z",
        endsAt: "2026-11-26T18:00:00.000Z",
      },
      context,
    );
    expect(subject).toBe("Mañana recargamos tu línea 55 •••• 0001 automáticamente");
    // One full stop after the time's "p.m." (issue 48).
    expect(text).toContain(
      `Tu paquete vence el ${formatDateTime("2026-11-26T18:00:00.000Z")} Como lo pediste`,
    );
    expect(formatDateTime("2026-11-26T18:00:00.000Z")).toMatch(/[ap]\.m\.$/);
    expect(text).not.toMatch(/[ap]\.m\.\./);
    expect(text).toContain("cargaremos $150.00\u00a0MXN a tu Visa terminada en 4242");
    expect(text).toContain("Máximo al mes: 2 recargas (hasta $300.00\u00a0MXN)");
    expect(text).toContain("https://www.conectamovil.mx/my-account/lineas");
    expect(text).not.toContain("5599000001");
    const declined = await renderMail(
      "auto_topup_declined",
      {
        autoTopup: autoTopupView,
        declineReason: "card_declined",
        retryAt: null,
        stopped: true,
        topupId: "tp_auto1",
      },
      context,
    );
    expect(declined.subject).toBe("Desactivamos la recarga automática de tu línea 55 •••• 0001");
    expect(declined.text).toContain("el banco rechazó la tarjeta.");
    expect(declined.text).toContain("https://www.conectamovil.mx/recarga/tp_auto1");
    const action = await renderMail(
      "auto_topup_action_required",
      { autoTopup: autoTopupView, topupId: "tp_auto2" },
      context,
    );
    expect(action.text).toContain("(3-D Secure)");
    expect(action.text).toContain("https://www.conectamovil.mx/recarga/tp_auto2");
  });

  it("a line running out: which line (masked), what is left, its vigencia, and the way to the account's lines", async () => {
    const { subject, text } = await renderMail(
      "line_running_out",
      {
        phoneNumber: "5599000001",
        reason: "data",
        packageName: "Conecta 200",
        endsAt: "2026-12-20T18:00:00.000Z",
        daysLeft: 25,
        data: { remainingMb: 300, totalMb: 4096 },
      },
      context,
    );
    expect(subject).toBe("A tu línea 55 •••• 0001 le quedan pocos datos");
    expect(text).toContain("Datos restantes: 300 MB de 4 GB");
    expect(text).toContain("Paquete: Conecta 200");
    expect(text).toContain("https://www.conectamovil.mx/my-account/lineas");
    expect(text).not.toContain("5599000001");
    const ending = await renderMail(
      "line_running_out",
      {
        phoneNumber: "5599000001",
        reason: "ending",
        packageName: "Recarga 50",
        endsAt: "2026-11-26T18:00:00.000Z",
        daysLeft: 1,
        data: null,
      },
      context,
    );
    expect(ending.subject).toBe("La vigencia de tu línea 55 •••• 0001 está por terminar");
    expect(ending.text).toContain("termina en 1 día.");
  });

  it("a line registered: the folio, its date and time in Mexico City, the line and the holder, the CURP only masked", async () => {
    const { subject, text, html } = await renderMail(
      "line_registered",
      {
        folio: "VIN-2026-000042",
        phoneNumber: "5599000001",
        holderName: "Ana Gómez Martínez",
        holderKeyMasked: "GOMA••••••••••••07",
        registeredAt: "2026-03-03T20:05:00.000Z",
      },
      context,
    );
    expect(subject).toBe("Tu línea quedó registrada: folio VIN-2026-000042");
    expect(text).toContain("Folio: VIN-2026-000042");
    expect(text).toContain(
      `Fecha y hora del registro: ${formatDateTime("2026-03-03T20:05:00.000Z")}`,
    );
    expect(text).toContain("Titular: Ana Gómez Martínez");
    expect(text).toContain("CURP o RFC: GOMA••••••••••••07");
    expect(`${text}${html}`).not.toContain("5599000001");
  });

  it("a registration's notice: the line masked, when, and the 'no fui yo' link; never a CURP or name", async () => {
    const { subject, text, html } = await renderMail(
      "registration_notice",
      {
        phoneNumber: "5599000001",
        registeredAt: "2026-03-03T20:05:00.000Z",
        disputePath: "/no-fui-yo/0123456789abcdef0123456789abcdef",
      },
      context,
    );
    expect(subject).toBe("Se registró una línea con tus datos");
    expect(text).toContain("55 •••• 0001");
    expect(text).toContain(formatDateTime("2026-03-03T20:05:00.000Z"));
    expect(html).toContain(`${context.origin}/no-fui-yo/0123456789abcdef0123456789abcdef`);
    expect(text).toContain("No fui yo");
    expect(`${text}${html}`).not.toContain("5599000001");
  });

  it("an invoice: its folio, UUID and receiver (the RFC masked), the XML and PDF attached as files, the page to see it again", async () => {
    const { subject, text, html, attachments } = await renderMail(
      "invoice_issued",
      invoiceModel,
      context,
    );
    expect(subject).toBe("Tu factura FAC-2026-000007 de la compra REC-2026-000045");
    expect(text).toContain("Folio fiscal (UUID): 3C8F1D2A-1B2C-4D5E-8F90-123456789ABC");
    expect(text).toContain("RFC: CNO0••••••B1");
    expect(text).toContain("no tiene validez fiscal");
    expect(text).toContain(`${context.origin}/facturacion?recarga=${"r".repeat(22)}`);
    expect(attachments).toEqual([
      {
        filename: "factura-FAC-2026-000007.xml",
        contentType: "application/xml",
        content: Buffer.from("<cfdi:Comprobante/>"),
      },
      {
        filename: "factura-FAC-2026-000007.pdf",
        contentType: "application/pdf",
        content: invoiceModel.pdf,
      },
    ]);
    // An order's e-mail links the lookup by folio: the order's page needs this browser or an account.
    const order = await renderMail(
      "invoice_issued",
      {
        ...invoiceModel,
        purchase: { kind: "order", ref: "o".repeat(22), folio: "PED-2026-000123" },
      },
      context,
    );
    expect(order.text).toContain(`${context.origin}/facturacion?folio=PED-2026-000123`);
    expect(`${order.text}${order.html}`).not.toContain("o".repeat(22));
    expect(html).not.toContain("cid:");
  });

  it("an order: folio, lines with prices, total, SIM type, address and how to find it again", async () => {
    const { subject, text, html } = await renderMail(
      "order_received",
      { order: physicalOrder },
      context,
    );
    expect(subject).toBe("Recibimos tu pedido PED-2026-000123");
    expect(text).toContain("Hola, Ana:");
    expect(text).toContain("2 × Conecta 150 ($150 c/u): $300");
    expect(text).toContain("1 × Conecta 500: $500");
    expect(text).toContain("Total a pagar: $800.00\u00a0MXN");
    expect(text).toContain("Tipo de SIM: SIM física");
    expect(text).toContain("Av. Insurgentes Sur 1234, Int. 5B");
    expect(text).toContain("Del Valle, C.P. 03100");
    expect(text).toContain("Benito Juárez, Ciudad de México");
    expect(text).toContain("https://www.conectamovil.mx/pedido?folio=PED-2026-000123");
    expect(html).toContain('href="https://www.conectamovil.mx/pedido?folio=PED-2026-000123"');
    expect(text).toContain("hola@conectamovil.mx");
  });

  it("an eSIM order tells the QR code comes by e-mail instead of an address", async () => {
    const { text } = await renderMail(
      "order_received",
      { order: { ...esimOrder, status: "pending_payment" } },
      context,
    );
    expect(text).toContain("Tipo de SIM: eSIM");
    expect(text).toContain("código QR");
    expect(text).not.toContain("Dirección de entrega");
  });

  it("a paid order keeping numbers: each request's folio, or that it was not filed and why", async () => {
    const { text } = await renderMail(
      "order_paid",
      {
        order: { ...esimOrder, status: "paid" },
        paidWith: null,
        portIns: [
          { phoneNumber: "3312345678", folio: "POR-2026-000042" },
          { phoneNumber: "8112345678", folio: null },
        ],
      },
      context,
    );
    expect(text).toContain("Los números que conservas");
    expect(text).toContain(
      "Tu número 33 •••• 5678: enviamos la solicitud de portabilidad POR-2026-000042",
    );
    expect(text).toContain("Tu número 81 •••• 5678: no enviamos la solicitud");
    expect(text).not.toContain("3312345678");
    const plain = await renderMail(
      "order_paid",
      { order: { ...esimOrder, status: "paid" }, paidWith: null },
      context,
    );
    expect(plain.text).not.toContain("Los números que conservas");
  });

  it("a cash voucher: amount, reference, where to pay, expiry, and a barcode to scan", async () => {
    const sample = samples.find((candidate) => candidate.name === "cash voucher for an order")!;
    const { subject, text, html, attachments } = await render(sample);
    expect(subject).toBe("Tu ficha para pagar en efectivo el pedido PED-2026-000123");
    expect(text).toContain("Importe exacto: $800.00\u00a0MXN");
    expect(text).toContain("Referencia: 93000000000018");
    expect(text).toContain("OXXO");
    expect(text).toContain(`Paga antes del: ${formatDateTime("2026-11-27T18:00:00.000Z")}`);
    expect(formatDateTime("2026-11-27T18:00:00.000Z")).toMatch(/^27 de noviembre de 2026/);
    expect(text).toContain("el pedido se cancela");
    expect(attachments).toHaveLength(1);
    expect(html).toContain('alt="Código de barras de la referencia 93000000000018"');
  });

  it("a SPEI transfer for a top-up: CLABE, bank, beneficiary, reference, masked line", async () => {
    const sample = samples.find((candidate) => candidate.name === "SPEI transfer for a top-up")!;
    const { subject, text, attachments } = await render(sample);
    expect(subject).toBe("Datos de tu transferencia SPEI para la recarga REC-2026-000042");
    expect(text).toContain("CLABE: 646 180 12345678901 7");
    expect(text).toContain("Banco: STP");
    expect(text).toContain("Beneficiario: Conecta Móvil Telecomunicaciones");
    expect(text).toContain("Referencia: 1234567");
    expect(text).toContain("55 •••• 5678");
    expect(text).not.toContain("5512345678");
    expect(text).toContain("la recarga se cancela");
    expect(text).toContain("https://pagos.example.com/instrucciones/abc");
    expect(text).toContain("https://www.conectamovil.mx/recarga/tp_abc123");
    expect(attachments).toBeUndefined();
  });

  it("an eSIM e-mail: a one-time link to the codes, never a code or a QR image", async () => {
    const { subject, text, html, attachments } = await renderMail(
      "esim_activation",
      { order: esimOrder, count: 2, link },
      context,
    );
    expect(subject).toBe("Tus 2 eSIM están listas: pedido PED-2026-000124");
    expect(attachments).toBeUndefined();
    const url = `https://www.conectamovil.mx/pedido/abrir?clave=${link.token}`;
    expect(text).toContain(url);
    expect(html).toContain(url);
    expect(text).not.toContain("LPA:");
    expect(html).not.toContain("LPA:");
    expect(text).toContain("una sola vez");
    const single = await renderMail(
      "esim_activation",
      { order: esimOrder, count: 1, link },
      context,
    );
    expect(single.subject).toBe("Tu eSIM está lista: pedido PED-2026-000124");
  });

  it("an order link: opens the order once, and says what to do if the customer did not ask", async () => {
    const { subject, text } = await renderMail(
      "order_link",
      { order: { folio: "PED-2026-000124", customerName: "Ana López" }, link },
      context,
    );
    expect(subject).toBe("Tu enlace para ver el pedido PED-2026-000124");
    expect(text).toContain(`https://www.conectamovil.mx/pedido/abrir?clave=${link.token}`);
    expect(text).toContain("Si no lo pediste");
  });

  it("shipped: carrier and tracking number, and where to activate the SIM", async () => {
    const sample = samples.find((candidate) => candidate.name === "order shipped")!;
    const { subject, text } = await render(sample);
    expect(subject).toBe("Tu SIM va en camino: pedido PED-2026-000123");
    expect(text).toContain("Paquetería: Estafeta");
    expect(text).toContain("Número de guía: 1234567890");
    expect(text).toContain("3 días");
    expect(text).toContain(
      "actívala en https://www.conectamovil.mx/activar con el ICCID impreso en la tarjeta",
    );
  });

  it("a top-up receipt: folio, masked line, amount, what it buys, its receipt's address", async () => {
    const sample = samples.find((candidate) => candidate.name === "top-up receipt")!;
    const { subject, text } = await render(sample);
    expect(subject).toBe("Comprobante de tu recarga REC-2026-000042");
    expect(text).toContain("Línea: 55 •••• 5678");
    expect(text).not.toContain("5512345678");
    expect(text).toContain("Monto: $100.00\u00a0MXN");
    expect(text).toMatch(/Incluye: Vigencia de \d+ días · [\d.]+ GB de datos/);
    expect(text).toContain("https://www.conectamovil.mx/recarga/tp_abc123");
    expect(text).toContain("Mastercard terminada en 4444");
    const bundle = await render(
      samples.find((candidate) => candidate.name === "top-up receipt of a one-day bundle")!,
    );
    expect(bundle.text).toContain("Vigencia de 1 día · 200 MB de datos");
  });

  it("portability: folio, masked number and each status as the customer reads it", async () => {
    const received = await render(
      samples.find((candidate) => candidate.name === "portability received")!,
    );
    expect(received.text).toContain("Folio: POR-2026-000007");
    expect(received.text).toContain("Línea: 81 •••• 5678");
    expect(received.text).toContain("Estado: Recibida");
    expect(received.text).toContain("Compañía actual: Telcel");
    expect(received.text).toContain("https://www.conectamovil.mx/portabilidad#consulta");
    const scheduled = await render(
      samples.find((candidate) => candidate.name === "portability scheduled")!,
    );
    expect(scheduled.text).toContain("Estado: Programada para el 1 de diciembre de 2026");
    expect(scheduled.subject).toBe(
      "Tu portabilidad POR-2026-000007 está programada para el 1 de diciembre de 2026",
    );
    const completed = await render(
      samples.find((candidate) => candidate.name === "portability completed")!,
    );
    expect(completed.text).toContain("Estado: Completada");
    const rejected = await render(
      samples.find((candidate) => candidate.name === "portability rejected")!,
    );
    expect(rejected.text).toContain("Estado: Rechazada: El NIP venció antes de la portabilidad.");
    for (const mail of [received, scheduled, completed, rejected]) {
      expect(mail.text).not.toContain("8112345678");
    }
    const withoutReason = await renderMail(
      "portability_status",
      {
        folio: "POR-2026-000007",
        fullName: "Luis Pérez",
        phoneNumber: "8112345678",
        change: { status: "rejected", reason: null },
      },
      context,
    );
    expect(withoutReason.text).toContain("Estado: Rechazada\n");
  });

  it("leaves the contact line out when none is configured", async () => {
    const { text } = await renderMail(
      "order_received",
      { order: physicalOrder },
      { ...context, support: null },
    );
    expect(text).not.toContain("Escríbenos a");
    expect(text).toContain("Conecta Móvil Telecomunicaciones");
  });
});

describe("what people typed", () => {
  it("is escaped in every HTML part, and kept as typed in the text", async () => {
    const order: OrderView = {
      ...physicalOrder,
      customerName: HOSTILE,
      lines: [{ planName: HOSTILE, quantity: 1, unitPrice: 150, lineTotal: 150 }],
      delivery: {
        ...physicalOrder.delivery!,
        street: HOSTILE,
        interiorNumber: HOSTILE,
        neighborhood: HOSTILE,
        municipality: HOSTILE,
      },
    };
    const mails = await Promise.all([
      renderMail("order_received", { order }, context),
      renderMail("order_paid", { order: { ...order, status: "paid" }, paidWith: null }, context),
      renderMail(
        "order_shipped",
        { order, carrier: HOSTILE, trackingNumber: HOSTILE, shippedAt: "2026-11-25T16:00:00.000Z" },
        context,
      ),
      renderMail(
        "payment_voucher",
        {
          amount: 100,
          instructions: {
            method: "spei",
            clabe: "646180123456789017",
            reference: "1234567",
            bank: HOSTILE,
            beneficiary: HOSTILE,
            expiresAt: "2026-11-27T18:00:00.000Z",
            hostedUrl: null,
          },
          subject: { kind: "order", folio: "PED-2026-000001", customerName: HOSTILE },
        },
        context,
      ),
      renderMail(
        "portability_status",
        {
          folio: "POR-2026-000007",
          fullName: HOSTILE,
          phoneNumber: "8112345678",
          change: { status: "rejected", reason: HOSTILE },
        },
        context,
      ),
    ]);
    for (const mail of mails) {
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).not.toContain(`"x"`);
      expect(mail.html).toContain(
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;",
      );
      expect(mail.text).toContain(HOSTILE.split(" ")[0].slice(0, 8));
    }
  });

  it("never becomes a link that is not http(s)", async () => {
    const { html, text } = await renderMail(
      "payment_voucher",
      {
        amount: 100,
        instructions: {
          method: "cash",
          reference: "93000000000018",
          expiresAt: "2026-11-27T18:00:00.000Z",
          hostedUrl: "javascript:alert(1)",
        },
        subject: { kind: "order", folio: "PED-2026-000001", customerName: "Ana" },
      },
      context,
    );
    expect(html).not.toContain("javascript:");
    expect(text).not.toContain("javascript:");
  });
});

describe("an account security change", () => {
  it("says what changed and when, what to do if it was not the customer, and links to the security page", async () => {
    const { subject, text } = await renderMail(
      "account_security",
      { change: "passkey_added", at: "2026-12-07T21:00:00.000Z" },
      context,
    );
    expect(subject).toBe("Se agregó una llave de acceso a tu cuenta");
    expect(text).toContain(`Fecha y hora: ${formatDateTime("2026-12-07T21:00:00.000Z")}`);
    expect(text).toContain("Si no fuiste tú");
    expect(text).toContain(`${context.origin}/my-account/seguridad`);
  });
});
