import { describe, expect, it } from "vitest";
import { orderReceipt } from "~/checkout/order-receipt-pdf.server";
import { topupReceipt } from "~/topup/receipt-pdf.server";
import { pdfText } from "../../tests/support/pdf-text";
import type { PaymentView } from "./payment-view.server";
import { receiptPdf } from "./receipt-pdf.server";

const cashPending: PaymentView = {
  status: "pending",
  method: "cash",
  declineReason: null,
  cardBrand: null,
  cardLast4: null,
  checkoutUrl: null,
  instructions: {
    method: "cash",
    reference: "93000012345678",
    barcode: "data:image/svg+xml;base64,",
    expires: "9 de diciembre de 2026, 14:05",
    hostedUrl: null,
    simulatorUrl: null,
  },
};

const order = {
  folio: "CM-2026-000123",
  status: "pending_payment" as const,
  total: 1234.5,
  lines: [
    {
      planId: "plan-199",
      planName: "Conecta 199",
      quantity: 2,
      unitPrice: 199,
      lineTotal: 398,
    },
  ],
};

describe("receipts as PDF", () => {
  it("an unpaid order's PDF is its voucher: barcode, amount, reference, expiry, in the page's words", async () => {
    const receipt = orderReceipt(order as Parameters<typeof orderReceipt>[0], cashPending);
    expect(receipt.voucher?.barcodeOf).toBe("93000012345678");
    const pdf = await receiptPdf(receipt);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(pdf);
    expect(text).toContain("CM-2026-000123");
    expect(text).toContain("Pendiente de pago");
    expect(text).toContain("2 × Conecta 199 ($199)");
    expect(text).toContain("$398");
    // The one money formatter: "$1,234.50 MXN" with its no-break space.
    expect(text).toContain("$1,234.50\u00a0MXN");
    expect(text).toContain("93000012345678");
    expect(text).toContain("9 de diciembre de 2026, 14:05");
    expect(text).toContain(
      "Si no pagas antes de esa fecha, la ficha vence y el pedido se cancela.",
    );
    // An image: the voucher's barcode.
    expect(pdf.toString("latin1")).toContain("/Subtype /Image");
  });

  it("a paid top-up's PDF has its masked line and card, and no voucher", async () => {
    const receipt = topupReceipt(
      {
        folio: "R-2026-000045",
        phoneNumber: "5512345678",
        amount: 100,
        status: "paid",
        paidAt: "2026-12-07T18:00:00.000Z",
        createdAt: "2026-12-07T17:59:00.000Z",
      },
      {
        ...cashPending,
        status: "approved",
        method: "card",
        cardBrand: "visa",
        cardLast4: "4242",
        instructions: null,
      },
    );
    expect(receipt.voucher).toBeNull();
    const text = pdfText(await receiptPdf(receipt));
    expect(text).toContain("R-2026-000045");
    expect(text).not.toContain("5512345678");
    expect(text).toContain("Pagada");
    expect(text).toContain("$100.00\u00a0MXN");
    expect(text).toContain("7 de diciembre de 2026");
    expect(text).toContain("4242");
  });
});
