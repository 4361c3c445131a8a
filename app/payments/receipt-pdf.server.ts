import bwipjs from "bwip-js/node";
import PDFDocument from "pdfkit";
import { collectPdf } from "~/lib/pdf-output.server";
import brand from "~/brand/brand.json";
import { drawLogo } from "~/brand/pdf-logo.mjs";
import { formatTotal } from "~/catalog/money";
import { getFixedT } from "~/i18n/i18n.server";
import type { InstructionsView } from "./payment-view.server";

/**
 * An order's or a top-up's receipt as a PDF (decision 0141), and with it the cash voucher or the
 * transfer's details while the payment is pending: what works without JavaScript where the
 * page's "Imprimir" needs it. The words and values come ready from the page's own loader
 * helpers (its messages, the one money and date formatters): the PDF shows what the page shows
 * of the purchase, never more (no CURP, no address, no e-mail).
 */
export interface ReceiptPdf {
  /** The document's heading and PDF title ("Comprobante de recarga R-…"). */
  title: string;
  /** The facts at the top: folio, status, amount… */
  facts: Array<[label: string, value: string]>;
  /** What was bought, one row each (an order's plans), with the total under them. */
  lines?: { heading: string; rows: Array<[text: string, amount: string]>; total: [string, string] };
  /** Sentences under the facts (how it was paid, what it includes). */
  notes: string[];
  /** The voucher or transfer still to pay. */
  voucher: {
    heading: string;
    intro: string;
    /** Code 128 of the reference (a cash voucher). */
    barcodeOf: string | null;
    rows: Array<[label: string, value: string]>;
    note: string;
  } | null;
}

const MARGIN = 48;
const TEXT = "#0f172a";
const MUTED = "#475569";

async function code128Png(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: "code128",
    text,
    scale: 3,
    height: 14,
    paddingwidth: 10,
    paddingheight: 4,
    backgroundcolor: "FFFFFF",
  });
}

/** The whole PDF, in memory (a few KB). Only its metadata (PDFKit's creation date) depends on the clock. */
export async function receiptPdf(receipt: ReceiptPdf): Promise<Buffer> {
  const barcode = receipt.voucher?.barcodeOf ? await code128Png(receipt.voucher.barcodeOf) : null;
  const pdf = new PDFDocument({
    size: "LETTER",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: receipt.title },
    lang: "es-MX",
  });
  const finished = collectPdf(pdf);
  const width = pdf.page.width - MARGIN * 2;

  drawLogo(pdf, brand, MARGIN, MARGIN);
  pdf.x = MARGIN;
  pdf.moveDown(1);
  pdf.font("Helvetica-Bold").fontSize(18).fillColor(TEXT).text(receipt.title, { width });
  pdf.moveDown(0.5);

  const row = (label: string, value: string, size = 11) => {
    pdf.font("Helvetica").fontSize(size).fillColor(MUTED).text(`${label}: `, {
      width,
      continued: true,
    });
    pdf.font("Helvetica-Bold").fillColor(TEXT).text(value);
  };
  for (const [label, value] of receipt.facts) row(label, value);

  if (receipt.lines) {
    pdf.moveDown(1);
    pdf.font("Helvetica-Bold").fontSize(13).fillColor(brand.colors.primaryDark);
    pdf.text(receipt.lines.heading, { width });
    pdf.moveDown(0.3);
    for (const [text, amount] of receipt.lines.rows) {
      const y = pdf.y;
      pdf
        .font("Helvetica")
        .fontSize(11)
        .fillColor(TEXT)
        .text(text, MARGIN, y, {
          width: width - 110,
        });
      const after = pdf.y;
      pdf.text(amount, MARGIN + width - 100, y, { width: 100, align: "right" });
      pdf.x = MARGIN;
      pdf.y = Math.max(after, pdf.y) + 2;
    }
    const y = pdf.y + 4;
    pdf
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + width, y)
      .strokeColor(MUTED)
      .stroke();
    const [label, amount] = receipt.lines.total;
    pdf.font("Helvetica-Bold").fontSize(12).fillColor(TEXT);
    pdf.text(label, MARGIN, y + 6, { width: width - 110 });
    pdf.text(amount, MARGIN + width - 100, y + 6, { width: 100, align: "right" });
    pdf.x = MARGIN;
  }

  if (receipt.notes.length > 0) pdf.moveDown(1);
  for (const note of receipt.notes) {
    pdf.font("Helvetica").fontSize(10).fillColor(MUTED).text(note, MARGIN, pdf.y, { width });
  }

  const { voucher } = receipt;
  if (voucher) {
    pdf.moveDown(1.5);
    const top = pdf.y;
    pdf
      .font("Helvetica-Bold")
      .fontSize(14)
      .fillColor(TEXT)
      .text(voucher.heading, MARGIN + 12, top + 12, {
        width: width - 24,
      });
    pdf.moveDown(0.3);
    pdf
      .font("Helvetica")
      .fontSize(10)
      .fillColor(TEXT)
      .text(voucher.intro, { width: width - 24 });
    if (barcode) {
      pdf.moveDown(0.5);
      pdf.image(barcode, MARGIN + 12, pdf.y, { fit: [Math.min(width - 24, 320), 80] });
      pdf.y += 88;
    }
    pdf.x = MARGIN + 12;
    for (const [label, value] of voucher.rows) {
      pdf
        .font("Helvetica")
        .fontSize(11)
        .fillColor(MUTED)
        .text(`${label}: `, {
          width: width - 24,
          continued: true,
        });
      pdf.font("Helvetica-Bold").fillColor(TEXT).text(value);
    }
    pdf.moveDown(0.5);
    pdf
      .font("Helvetica")
      .fontSize(9)
      .fillColor(MUTED)
      .text(voucher.note, { width: width - 24 });
    pdf
      .rect(MARGIN, top, width, pdf.y - top + 12)
      .lineWidth(2)
      .strokeColor(TEXT)
      .stroke();
  }

  pdf.end();
  return finished;
}

/**
 * The voucher or transfer as the page's PaymentInstructions shows it, in its words: the barcode
 * (cash), the exact amount, the CLABE, bank and beneficiary (SPEI), the reference and the expiry.
 */
export function voucherSection(
  instructions: InstructionsView,
  amount: number,
  paying: "order" | "topup",
): NonNullable<ReceiptPdf["voucher"]> {
  const t = getFixedT("commerce");
  const cash = instructions.method === "cash";
  return {
    heading: t(cash ? "payment.instructions.cashHeading" : "payment.instructions.speiHeading"),
    intro: t(cash ? "payment.instructions.cashIntro" : "payment.instructions.speiIntro"),
    barcodeOf: cash ? instructions.reference : null,
    rows: [
      [t("payment.instructions.amount"), formatTotal(amount)],
      ...(instructions.method === "spei"
        ? ([
            [t("payment.instructions.clabe"), instructions.clabe],
            [t("payment.instructions.bank"), instructions.bank],
            [t("payment.instructions.beneficiary"), instructions.beneficiary],
          ] as Array<[string, string]>)
        : []),
      [t("payment.instructions.reference"), instructions.reference],
      [t("payment.instructions.expires"), instructions.expires],
    ],
    note: t(`payment.instructions.expiryNote.${instructions.method}.${paying}`),
  };
}

/** The PDF as the answer: a download, the customer's own, never cached or indexed. */
export function receiptPdfResponse(body: Buffer, filename: string): Response {
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(body.length),
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
