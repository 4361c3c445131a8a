import PDFDocument from "pdfkit";
import { collectPdf } from "~/lib/pdf-output.server";
import QRCode from "qrcode";
import brand from "~/brand/brand.json";
import { drawLogo } from "~/brand/pdf-logo.mjs";
import { formatDateTime } from "~/lib/dates";
import type { Cfdi } from "./cfdi";
import { satVerificationUrl } from "./cfdi";
import type { StampDetails } from "./provider";
import { FORMA_PAGO_NAMES, regimenName, usoName, type FormaPago } from "./sat-catalogs";
import { SANDBOX_LEGEND } from "./sandbox-pac.server";

/**
 * The printed representation of a CFDI (Anexo 20): the brand, the issuer and receiver, every
 * concept with its SAT keys, the totals, the seals, and the QR code to SAT's verification with
 * the UUID (decision 0117). A sandbox invoice says "SIN VALIDEZ FISCAL" across the top and has no
 * seals; a cancelled one says "CANCELADA". Everything printed comes from the invoice as recorded:
 * the same invoice always prints the same PDF (its dates included).
 */

export interface InvoiceDocument {
  folio: string;
  uuid: string;
  purchaseFolio: string;
  cfdi: Cfdi;
  stamp: StampDetails;
  /** When it was issued (FechaTimbrado). */
  issuedAt: string;
  /** Cancelled (accepted by the SAT) or a cancellation pending; null: valid. */
  cancellation: "accepted" | "pending" | null;
}

const MARGIN = 40;
const TEXT = "#0f172a";
const MUTED = "#475569";
const NOTICE = "#b91c1c";

function money(amount: string): string {
  const [whole, fraction = "00"] = amount.split(".");
  return `$${Number(whole).toLocaleString("en-US")}.${fraction.padEnd(2, "0").slice(0, 6)}`;
}

/** The whole PDF, in memory (a few KB). */
export async function invoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const { cfdi, stamp } = document;
  const qr = await QRCode.toBuffer(
    satVerificationUrl({
      uuid: document.uuid,
      issuerRfc: cfdi.emisor.rfc,
      receiverRfc: cfdi.receptor.rfc,
      total: cfdi.total,
      sello: stamp.selloCfd,
    }),
    { errorCorrectionLevel: "M", margin: 1, width: 240 },
  );
  const pdf = new PDFDocument({
    size: "LETTER",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: {
      Title: `Factura ${document.folio}`,
      Author: "Conecta Móvil",
      Subject: `CFDI ${document.uuid}`,
      CreationDate: new Date(document.issuedAt),
      ModDate: new Date(document.issuedAt),
    },
    lang: "es-MX",
  });
  const finished = collectPdf(pdf);

  const width = pdf.page.width - MARGIN * 2;
  drawLogo(pdf, brand, MARGIN, MARGIN);
  // The invoice's identity, top right.
  const boxX = MARGIN + width / 2;
  const facts: Array<[string, string]> = [
    ["Serie y folio", `${cfdi.serie} ${cfdi.folio}`],
    ["Folio fiscal (UUID)", document.uuid],
    ["Fecha de emisión", cfdi.fecha],
    ["Fecha de certificación", formatDateTime(stamp.stampedAt)],
    ["Lugar de expedición", cfdi.lugarExpedicion],
    ["Tipo de comprobante", "I - Ingreso"],
    ["Compra", document.purchaseFolio],
  ];
  let y = MARGIN;
  pdf.font("Helvetica-Bold").fontSize(13).fillColor(TEXT);
  pdf.text("Factura electrónica (CFDI 4.0)", boxX, y, { width: width / 2, align: "right" });
  y += 20;
  for (const [label, value] of facts) {
    pdf.font("Helvetica").fontSize(8).fillColor(MUTED);
    pdf.text(`${label}: `, boxX, y, { width: width / 2, align: "right", continued: true });
    pdf.font("Helvetica-Bold").fillColor(TEXT).text(value);
    y += 11;
  }
  y = Math.max(y, MARGIN + 60) + 10;

  const banner = (text: string) => {
    pdf.rect(MARGIN, y, width, 24).fill(NOTICE);
    pdf.font("Helvetica-Bold").fontSize(12).fillColor("#ffffff");
    pdf.text(text, MARGIN, y + 7, { width, align: "center" });
    y += 32;
  };
  if (stamp.sandbox) banner("SIN VALIDEZ FISCAL · COMPROBANTE DE PRUEBA");
  if (document.cancellation === "accepted") banner("CANCELADA");
  if (document.cancellation === "pending") banner("CANCELACIÓN EN PROCESO");

  // Issuer and receiver, side by side.
  const column = (x: number, heading: string, lines: Array<[string, string]>) => {
    let lineY = y;
    pdf.font("Helvetica-Bold").fontSize(9).fillColor(brand.colors.primaryDark);
    pdf.text(heading, x, lineY, { width: width / 2 - 10 });
    lineY += 13;
    for (const [label, value] of lines) {
      pdf.font("Helvetica").fontSize(8).fillColor(MUTED);
      pdf.text(`${label}: `, x, lineY, { width: width / 2 - 10, continued: true });
      pdf.fillColor(TEXT).text(value);
      lineY = pdf.y + 2;
    }
    return lineY;
  };
  const issuerEnd = column(MARGIN, "Emisor", [
    ["RFC", cfdi.emisor.rfc],
    ["Nombre", cfdi.emisor.name],
    ["Régimen fiscal", `${cfdi.emisor.regimen} ${regimenName(cfdi.emisor.regimen)}`],
  ]);
  const receiverEnd = column(MARGIN + width / 2, "Receptor", [
    ["RFC", cfdi.receptor.rfc],
    ["Nombre", cfdi.receptor.name],
    ["Domicilio fiscal (C.P.)", cfdi.receptor.postalCode],
    ["Régimen fiscal", `${cfdi.receptor.regimen} ${regimenName(cfdi.receptor.regimen)}`],
    ["Uso del CFDI", `${cfdi.receptor.uso} ${usoName(cfdi.receptor.uso)}`],
  ]);
  y = Math.max(issuerEnd, receiverEnd) + 12;

  // The concepts.
  const columns = [
    { header: "Clave", width: 52, value: (c: Cfdi["conceptos"][number]) => c.claveProdServ },
    { header: "Cant.", width: 30, value: (c: Cfdi["conceptos"][number]) => c.cantidad },
    {
      header: "Unidad",
      width: 58,
      value: (c: Cfdi["conceptos"][number]) => `${c.claveUnidad} ${c.unidad}`,
    },
    { header: "Descripción", width: 190, value: (c: Cfdi["conceptos"][number]) => c.descripcion },
    {
      header: "Valor unitario",
      width: 70,
      value: (c: Cfdi["conceptos"][number]) => money(c.valorUnitario),
    },
    {
      header: "IVA 16 %",
      width: 62,
      value: (c: Cfdi["conceptos"][number]) => money(c.traslado.importe),
    },
    { header: "Importe", width: 70, value: (c: Cfdi["conceptos"][number]) => money(c.importe) },
  ];
  const row = (cells: string[], bold: boolean) => {
    let x = MARGIN;
    let tallest = 0;
    pdf
      .font(bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(7.5)
      .fillColor(TEXT);
    cells.forEach((cell, index) => {
      const cellWidth = columns[index].width;
      pdf.text(cell, x + 2, y, { width: cellWidth - 4, align: index >= 4 ? "right" : "left" });
      tallest = Math.max(tallest, pdf.y - y);
      x += cellWidth;
    });
    y += tallest + 4;
    pdf
      .moveTo(MARGIN, y - 2)
      .lineTo(MARGIN + width, y - 2)
      .lineWidth(0.5)
      .stroke("#cbd5e1");
  };
  row(
    columns.map((entry) => entry.header),
    true,
  );
  for (const concepto of cfdi.conceptos)
    row(
      columns.map((entry) => entry.value(concepto)),
      false,
    );
  pdf.font("Helvetica").fontSize(7).fillColor(MUTED);
  pdf.text(
    "Objeto de impuesto: 02 (sí objeto de impuesto). IVA trasladado (002), tasa 0.160000, incluido en el precio pagado.",
    MARGIN,
    y + 2,
    { width },
  );
  y = pdf.y + 8;

  // Totals, right.
  const totals: Array<[string, string]> = [
    ["Subtotal", money(cfdi.subTotal)],
    ["IVA trasladado 16 %", money(cfdi.impuestos.totalImpuestosTrasladados)],
    ["Total (MXN)", money(cfdi.total)],
  ];
  for (const [label, value] of totals) {
    pdf.font("Helvetica").fontSize(9).fillColor(MUTED);
    pdf.text(label, MARGIN + width - 240, y, { width: 140, align: "right" });
    pdf.font("Helvetica-Bold").fillColor(TEXT);
    pdf.text(value, MARGIN + width - 95, y, { width: 95, align: "right" });
    y += 13;
  }
  pdf.font("Helvetica").fontSize(8).fillColor(MUTED);
  pdf.text(
    `Forma de pago: ${cfdi.formaPago} ${FORMA_PAGO_NAMES[cfdi.formaPago as FormaPago] ?? ""} · Método de pago: PUE Pago en una sola exhibición · Moneda: MXN · Exportación: 01 No aplica`,
    MARGIN,
    y + 4,
    { width },
  );
  y = pdf.y + 12;

  // The QR code and the seals.
  const qrSize = 110;
  pdf.image(qr, MARGIN, y, { width: qrSize, height: qrSize });
  const sealX = MARGIN + qrSize + 12;
  const sealWidth = width - qrSize - 12;
  const seal = (label: string, value: string) => {
    pdf.font("Helvetica-Bold").fontSize(7).fillColor(TEXT).text(label, sealX, pdf.y, {
      width: sealWidth,
    });
    pdf
      .font("Courier")
      .fontSize(6)
      .fillColor(MUTED)
      .text(value || "—", sealX, pdf.y, {
        width: sealWidth,
      });
    pdf.moveDown(0.4);
  };
  pdf.y = y;
  if (stamp.sandbox) {
    pdf.font("Helvetica-Bold").fontSize(8).fillColor(NOTICE);
    pdf.text(SANDBOX_LEGEND, sealX, pdf.y, { width: sealWidth });
    pdf.moveDown(0.4);
  }
  seal("Sello digital del CFDI", stamp.selloCfd);
  seal("Sello digital del SAT", stamp.selloSat);
  seal(
    "No. de serie del certificado del emisor / del SAT",
    `${stamp.noCertificado || "—"} / ${stamp.noCertificadoSat || "—"}`,
  );
  seal("RFC del proveedor de certificación", stamp.rfcProvCertif);
  y = Math.max(pdf.y, y + qrSize) + 10;
  pdf.font("Helvetica").fontSize(7.5).fillColor(MUTED);
  pdf.text(
    "Este documento es una representación impresa de un CFDI. Verifica su validez en https://verificacfdi.facturaelectronica.sat.gob.mx con el folio fiscal (UUID) o el código QR.",
    MARGIN,
    y,
    { width },
  );
  pdf.end();
  return finished;
}
