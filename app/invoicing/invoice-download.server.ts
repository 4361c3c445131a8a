import { data } from "react-router";
import { invoiceDocument } from "./invoice-document.server";
import { loadPurchase } from "./invoice-request.server";
import { findInvoiceOfPurchase, hasBeenIssued } from "./invoices.server";
import type { RequestContext } from "~/context";

/**
 * The invoice's stamped XML as recorded, or its PDF printed from it, as an attachment: for the
 * same viewers as its purchase (404 for anyone else, as the purchase's own pages answer).
 */
export async function loadInvoiceFile(context: RequestContext, request: Request) {
  const format = new URL(request.url).searchParams.get("formato");
  if (format !== "xml" && format !== "pdf") throw data(null, { status: 404 });
  const purchase = await loadPurchase(context, request);
  const invoice = purchase ? await findInvoiceOfPurchase(context.db, purchase) : null;
  const document = invoice && hasBeenIssued(invoice) ? invoiceDocument(invoice) : null;
  if (!invoice || !document) throw data(null, { status: 404 });
  const body = format === "xml" ? Buffer.from(document.xml, "utf8") : await document.pdf();
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": format === "xml" ? "application/xml; charset=utf-8" : "application/pdf",
      "Content-Disposition": `attachment; filename="factura-${invoice.folio}.${format}"`,
      "Content-Length": String(body.length),
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
