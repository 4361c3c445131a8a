import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Facturapi's API v2 (https://www.facturapi.io/v2), speaking its documented
 * wire format (the OpenAPI of FacturAPI/facturapi-docs, "Error handling" and "Cancelaciones"):
 * JSON bodies, `Authorization: Bearer <key>`, invoices shaped like `Invoice` (id, status, uuid,
 * total, stamp{…}, cancellation_status), errors as `{ok:false,message,status,code,path?,errors?}`
 * with Facturapi's root codes (`invoice_stamping_validation_error`, `legal_name_mismatch`…) and
 * detail codes with their `source`, downloads at /invoices/:id/xml|pdf, cancellation by
 * DELETE /invoices/:id?motive=&substitution=.
 *
 * It knows the receivers the test tells it about (their registered name, régimen and código
 * postal), as SAT's list would. What it cannot be: SAT's and the PAC's own validations beyond
 * these, the real seal and stamp, asynchronous stamping's recovery, and the real timing.
 */

export interface RegisteredTaxpayer {
  legalName: string;
  taxSystems: string[];
  zip: string;
}

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
}

interface StandInInvoice {
  id: string;
  livemode: false;
  status: "valid" | "canceled" | "pending";
  cancellation_status: "none" | "pending" | "accepted";
  type: "I";
  uuid: string;
  total: number;
  date: string;
  series: string;
  folio_number: number;
  external_id: string | null;
  idempotency_key: string | null;
  payment_form: string;
  payment_method: string;
  use: string;
  customer: { legal_name: string; tax_id: string; tax_system: string; address: { zip: string } };
  items: Array<{ quantity: number; product: Record<string, unknown> }>;
  stamp: {
    date: string;
    signature: string;
    sat_signature: string;
    sat_cert_number: string;
    complement_string: string;
    rfc_provider_cert: string;
  };
}

export interface FacturapiStandIn {
  url: string;
  apiKey: string;
  requests: StandInRequest[];
  invoices: Map<string, StandInInvoice>;
  /** RFC → what SAT has for it; an RFC it does not list is "not found". */
  taxpayers: Map<string, RegisteredTaxpayer>;
  /** What the next request to create an invoice meets instead of an answer. */
  failNext: null | "server-error" | "hang" | "accepted-async";
  /** The SAT leaves cancellations pending the receiver's acceptance. */
  cancellationsPending: boolean;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "X-Facturapi-Log-Id": randomBytes(6).toString("hex"),
  });
  response.end(text);
}

/** Facturapi's error object. */
function error(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: { path?: string; errors?: Array<Record<string, string>> } = {},
) {
  send(response, status, { ok: false, message, status, code, location: "body", ...extra });
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : null;
}

function seal(): string {
  return randomBytes(96).toString("base64");
}

/** A stamped CFDI as Facturapi's download returns it (the store reads a few attributes). */
function stampedXml(invoice: StandInInvoice): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="4.0" Serie="${invoice.series}" Folio="${invoice.folio_number}" Fecha="${invoice.date.slice(0, 19)}" Sello="${invoice.stamp.signature}" FormaPago="${invoice.payment_form}" NoCertificado="30001000000500003416" Certificado="MIIF" SubTotal="0" Moneda="MXN" Total="${invoice.total.toFixed(2)}" TipoDeComprobante="I" Exportacion="01" MetodoPago="${invoice.payment_method}" LugarExpedicion="42501">
  <cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
  <cfdi:Receptor Rfc="${invoice.customer.tax_id}" Nombre="${invoice.customer.legal_name}" DomicilioFiscalReceptor="${invoice.customer.address.zip}" RegimenFiscalReceptor="${invoice.customer.tax_system}" UsoCFDI="${invoice.use}"/>
  <cfdi:Complemento>
    <tfd:TimbreFiscalDigital Version="1.1" UUID="${invoice.uuid}" FechaTimbrado="${invoice.stamp.date.slice(0, 19)}" RfcProvCertif="${invoice.stamp.rfc_provider_cert}" SelloCFD="${invoice.stamp.signature}" NoCertificadoSAT="${invoice.stamp.sat_cert_number}" SelloSAT="${invoice.stamp.sat_signature}"/>
  </cfdi:Complemento>
</cfdi:Comprobante>
`;
}

export async function startFacturapiStandIn(): Promise<FacturapiStandIn> {
  const apiKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const standIn: FacturapiStandIn = {
    url: "",
    apiKey,
    requests: [],
    invoices: new Map(),
    taxpayers: new Map(),
    failNext: null,
    cancellationsPending: false,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function createInvoice(body: Record<string, unknown>, response: ServerResponse) {
    const failure = standIn.failNext;
    standIn.failNext = null;
    if (failure === "hang") return; // never answers
    if (failure === "server-error") {
      return error(response, 500, "internal_error", "Ocurrió un error inesperado.");
    }
    const customer = body.customer as StandInInvoice["customer"] | undefined;
    if (
      !customer?.tax_id ||
      !customer.legal_name ||
      !customer.tax_system ||
      !customer.address?.zip
    ) {
      return error(response, 400, "invalid_request", 'El campo "customer.tax_id" es requerido.', {
        path: "customer.tax_id",
        errors: [
          {
            code: "required",
            source: "facturapi",
            path: "customer.tax_id",
            message: 'El campo "customer.tax_id" es requerido.',
          },
        ],
      });
    }
    const key = typeof body.idempotency_key === "string" ? body.idempotency_key : null;
    const earlier = key
      ? [...standIn.invoices.values()].find((invoice) => invoice.idempotency_key === key)
      : undefined;
    if (earlier) return send(response, 200, earlier);
    const taxpayer = standIn.taxpayers.get(customer.tax_id);
    if (!taxpayer) {
      const message = `No se encontró el RFC [${customer.tax_id}] en la Lista de Contribuyentes Obligados.`;
      return error(response, 400, "invoice_stamping_validation_error", message, {
        errors: [
          { message, code: "tax_id_not_found", source: "facturapi", path: "customer.tax_id" },
        ],
      });
    }
    if (taxpayer.legalName !== customer.legal_name) {
      return error(
        response,
        400,
        "legal_name_mismatch",
        "El nombre o razón social no coincide con el RFC en los registros del SAT.",
        { path: "customer.legal_name" },
      );
    }
    if (!taxpayer.taxSystems.includes(customer.tax_system)) {
      return error(
        response,
        400,
        "invoice_stamping_validation_error",
        "El régimen fiscal no corresponde.",
        {
          errors: [
            {
              message: "El régimen fiscal no está permitido para el RFC en los registros del SAT.",
              code: "tax_system_not_allowed_for_tax_id",
              source: "facturapi",
              path: "customer.tax_system",
            },
          ],
        },
      );
    }
    if (taxpayer.zip !== customer.address.zip) {
      return error(
        response,
        400,
        "invoice_stamping_validation_error",
        "El código postal no coincide.",
        {
          errors: [
            {
              message: "El código postal fiscal no coincide con el RFC en los registros del SAT.",
              code: "tax_address_zip_mismatch",
              source: "facturapi",
            },
          ],
        },
      );
    }
    if (body.use === "D01" && customer.tax_system === "601") {
      return error(response, 400, "invoice_stamping_validation_error", "CFDI40161", {
        errors: [
          {
            message:
              "La clave del campo UsoCFDI debe corresponder con el tipo de persona y el régimen.",
            code: "CFDI40161",
            source: "sat",
            path: "use",
          },
        ],
      });
    }
    const items = (body.items as StandInInvoice["items"]) ?? [];
    const total = items.reduce(
      (sum, item) => sum + (item.quantity ?? 1) * Number(item.product.price),
      0,
    );
    const now = new Date().toISOString();
    const invoice: StandInInvoice = {
      id: randomBytes(12).toString("hex"),
      livemode: false,
      status: failure === "accepted-async" ? "pending" : "valid",
      cancellation_status: "none",
      type: "I",
      uuid: failure === "accepted-async" ? "" : randomUUID(),
      total,
      date: now,
      series: String(body.series ?? ""),
      folio_number: Number(body.folio_number ?? 1),
      external_id: typeof body.external_id === "string" ? body.external_id : null,
      idempotency_key: key,
      payment_form: String(body.payment_form),
      payment_method: String(body.payment_method ?? "PUE"),
      use: String(body.use),
      customer,
      items,
      stamp: {
        date: now,
        signature: seal(),
        sat_signature: seal(),
        sat_cert_number: "30001000000500003456",
        complement_string: "||1.1|…||",
        rfc_provider_cert: "SPR190613I52",
      },
    };
    standIn.invoices.set(invoice.id, invoice);
    send(response, failure === "accepted-async" ? 202 : 200, invoice);
  }

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const body = request.method === "POST" ? await readBody(request) : null;
    standIn.requests.push({
      method: request.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      authorization: request.headers.authorization,
      body,
    });
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return error(response, 401, "api_key_invalid", "La llave de API no es válida.");
    }
    const path = url.pathname.replace(/^\/v2/, "");
    if (request.method === "POST" && path === "/invoices") {
      return createInvoice(body as Record<string, unknown>, response);
    }
    if (request.method === "GET" && path === "/invoices") {
      const externalId = url.searchParams.get("external_id");
      const data = [...standIn.invoices.values()].filter(
        (invoice) => externalId === null || invoice.external_id === externalId,
      );
      return send(response, 200, { page: 1, total_pages: 1, total_results: data.length, data });
    }
    const file = /^\/invoices\/(\w+)\/(xml|pdf)$/.exec(path);
    if (request.method === "GET" && file) {
      const invoice = standIn.invoices.get(file[1]);
      if (!invoice) return error(response, 404, "invoice_not_found", "La factura no existe.");
      if (file[2] === "xml") {
        response.writeHead(200, { "Content-Type": "application/xml" });
        return response.end(stampedXml(invoice));
      }
      response.writeHead(200, { "Content-Type": "application/pdf" });
      return response.end(Buffer.from("%PDF-1.4\n% stand-in\n"));
    }
    const one = /^\/invoices\/(\w+)$/.exec(path);
    if (request.method === "DELETE" && one) {
      const invoice = standIn.invoices.get(one[1]);
      if (!invoice) return error(response, 404, "invoice_not_found", "La factura no existe.");
      const motive = url.searchParams.get("motive");
      if (!motive || !["01", "02", "03", "04"].includes(motive)) {
        return error(response, 400, "invalid_request", 'El campo "motive" es requerido.', {
          path: "motive",
        });
      }
      if (motive === "01" && !url.searchParams.get("substitution")) {
        return error(
          response,
          400,
          "substitution_invoice_required",
          "El motivo 01 requiere la factura que sustituye a la cancelada.",
        );
      }
      if (invoice.status === "canceled") {
        return error(response, 400, "invoice_not_cancelable", "La factura ya está cancelada.");
      }
      if (standIn.cancellationsPending) {
        invoice.cancellation_status = "pending";
      } else {
        invoice.status = "canceled";
        invoice.cancellation_status = "accepted";
      }
      return send(response, 200, invoice);
    }
    error(response, 404, "not_found", "No encontrado.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  return standIn;
}
