// The brand's mark and wordmark drawn with pdfkit (decision 0071): one drawing for the legal PDFs
// (scripts/build-legal-pdfs.mjs, plain Node at build time) and the invoices' printed
// representation (app/invoicing/invoice-pdf.server.ts). JavaScript, so that both can import it;
// each passes brand.json (plain Node needs an import attribute for JSON, which Remix's
// compiler did not parse when this was written).

/**
 * The mark and "Conecta Móvil" at (x, y), `size` points tall; leaves the cursor under them.
 * @param {PDFKit.PDFDocument} pdf
 * @param {typeof import("./brand.json")} brand app/brand/brand.json
 * @param {number} x
 * @param {number} y
 * @param {number} [size]
 */
export function drawLogo(pdf, brand, x, y, size = 28) {
  const { colors, mark } = brand;
  pdf
    .save()
    .translate(x, y)
    .scale(size / mark.size);
  pdf.path(mark.tile).fill(colors.primary);
  pdf.path(mark.dot).fill(colors.onPrimary);
  pdf.lineWidth(mark.strokeWidth).lineCap("round");
  pdf.path(mark.innerArc).stroke(colors.onPrimary);
  pdf.path(mark.outerArc).stroke(colors.arcAccent);
  pdf.restore();
  const baseline = y + size * 0.2;
  pdf.font("Helvetica-Bold").fontSize(size * 0.62);
  pdf.fillColor(colors.primaryDark).text("Conecta ", x + size + 8, baseline, { continued: true });
  pdf.fillColor(colors.secondary).text("Móvil");
  pdf.x = x;
  pdf.y = y + size + 10;
}
