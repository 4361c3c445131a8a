/**
 * The bytes of a PDF that PDFKit is writing: call it before drawing, and await it after
 * `pdf.end()`. One place for the receipts and the invoices.
 */
export function collectPdf(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
}
