import Facturapi from "facturapi";
import type { Logger } from "pino";
import { CONCEPT_KEYS, IVA } from "./sat-catalogs";
import { amountOfNumber } from "./cfdi";
import {
  InvoiceProviderUnavailable,
  InvoiceRefused,
  REFUSAL_FIELDS,
  type InvoiceProvider,
  type PacRefusal,
  type RefusalReason,
  type RefusedField,
  type StampedInvoice,
  type StampRequest,
} from "./provider";

/**
 * Facturapi as the store's PAC (decision 0118), through its official SDK (`facturapi`, API v2).
 * The store sends the receiver and one item per concept with its SAT keys and its price with IVA
 * included; Facturapi builds the same CFDI, seals it with the store's CSD (uploaded to Facturapi
 * by the operator) and stamps it. Tested only against a local stand-in that answers in
 * Facturapi's documented shapes (tests/support/facturapi-stand-in.ts): see README, "Invoices".
 */

export interface FacturapiOptions {
  apiKey: string;
  /** Another address for the API (the tests' stand-in); absent, Facturapi's own. */
  apiUrl?: string;
  timeoutMs: number;
  logger: Pick<Logger, "warn" | "error">;
}

/** What a FacturapiError carries (its class is not `instanceof`-safe across bundles). */
interface FacturapiErrorShape {
  name: string;
  status: number;
  code?: string;
  path?: string;
  message: string;
  errors?: Array<{ code?: string; path?: string; message?: string; source?: string }>;
}

function isFacturapiError(error: unknown): error is FacturapiErrorShape {
  return (
    error instanceof Error &&
    error.name === "FacturapiError" &&
    typeof (error as { status?: unknown }).status === "number"
  );
}

const TAX_INFO_CODES: Record<string, RefusalReason> = {
  tax_id_not_found: "tax_id_not_found",
  legal_name_mismatch: "legal_name_mismatch",
  tax_address_zip_mismatch: "tax_address_zip_mismatch",
  tax_system_not_allowed_for_tax_id: "tax_system_not_allowed_for_tax_id",
  tax_system_not_in_catalog: "tax_system_not_allowed_for_tax_id",
};

const FIELD_OF_PATH: Record<string, RefusedField> = {
  "customer.tax_id": "rfc",
  "customer.legal_name": "nombre",
  "customer.tax_system": "regimen",
  "customer.address.zip": "codigo_postal",
  use: "uso",
};

/**
 * Facturapi's refusal (a 400: the request, the receiver's tax information, or SAT's validation
 * at stamping) as the customer is told it: a reason next to its field when its code or path says
 * which, else the PAC's own (Spanish) message for the form.
 */
export function refusalOf(error: FacturapiErrorShape): PacRefusal {
  const details = error.errors ?? [];
  const codes = [error.code, ...details.map((detail) => detail.code)].filter(
    (code): code is string => typeof code === "string",
  );
  const known = codes.map((code) => TAX_INFO_CODES[code]).find(Boolean);
  const code = codes.find((candidate) => TAX_INFO_CODES[candidate]) ?? codes.at(-1) ?? "unknown";
  if (known) return { reason: known, field: REFUSAL_FIELDS[known], code, message: null };
  const path = [error.path, ...details.map((detail) => detail.path)].find(
    (candidate) => candidate !== undefined && Object.hasOwn(FIELD_OF_PATH, candidate),
  );
  if (path === "use") return { reason: "use_not_allowed", field: "uso", code, message: null };
  const message = details.find((detail) => detail.message)?.message ?? error.message;
  return { reason: "other", field: path ? FIELD_OF_PATH[path] : null, code, message };
}

/** A refusal the customer can fix, or the service's own trouble (tried again later). */
function classify(error: unknown): InvoiceRefused | InvoiceProviderUnavailable {
  if (!isFacturapiError(error)) {
    return new InvoiceProviderUnavailable("network", error);
  }
  if (error.status === 400 || error.status === 422) return new InvoiceRefused(refusalOf(error));
  return new InvoiceProviderUnavailable(`status ${error.status} ${error.code ?? ""}`.trim(), error);
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new InvoiceProviderUnavailable(`no answer in ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The SDK's download: a Node stream (or a Blob elsewhere), read whole as text. */
async function readText(download: unknown): Promise<string> {
  if (download && typeof (download as Blob).text === "function") {
    return (download as Blob).text();
  }
  const chunks: Buffer[] = [];
  for await (const chunk of download as AsyncIterable<Buffer | string>) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** One attribute of a stamped CFDI the JSON answer lacks (the CSD's and the PAC's numbers). */
function attributeOf(xml: string, name: string): string {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? "";
}

interface FacturapiInvoice {
  id: string;
  status: string;
  uuid: string;
  total: number;
  stamp?: { date?: string; signature?: string; sat_signature?: string; sat_cert_number?: string };
}

export function createFacturapiPac(options: FacturapiOptions): InvoiceProvider {
  const client = new Facturapi(options.apiKey, { apiVersion: "v2" });
  if (options.apiUrl) client.BASE_URL = options.apiUrl.replace(/\/+$/, "");
  const call = <T>(work: () => Promise<T>) => withTimeout(work(), options.timeoutMs);

  async function findByExternalId(externalId: string): Promise<FacturapiInvoice | null> {
    const found = await call(() => client.invoices.list({ external_id: externalId, limit: 1 }));
    const invoice = (found.data?.[0] ?? null) as FacturapiInvoice | null;
    return invoice && invoice.status === "valid" ? invoice : null;
  }

  async function create(request: StampRequest): Promise<FacturapiInvoice> {
    const { cfdi } = request;
    const [year, sequence] = cfdi.folio.split("-");
    return (await call(() =>
      client.invoices.create({
        type: "I",
        customer: {
          legal_name: cfdi.receptor.name,
          tax_id: cfdi.receptor.rfc,
          tax_system: cfdi.receptor.regimen,
          address: { zip: cfdi.receptor.postalCode, country: "MEX" },
        },
        items: request.items.map((item) => ({
          quantity: item.quantity,
          product: {
            description: item.description,
            product_key: CONCEPT_KEYS.claveProdServ,
            unit_key: CONCEPT_KEYS.claveUnidad,
            unit_name: CONCEPT_KEYS.unidad,
            price: item.unitPrice,
            tax_included: true,
            taxability: CONCEPT_KEYS.objetoImp,
            taxes: [{ type: "IVA", rate: IVA.rate }],
            sku: item.sku,
          },
        })),
        payment_form: cfdi.formaPago,
        payment_method: cfdi.metodoPago,
        use: cfdi.receptor.uso,
        currency: cfdi.moneda,
        export: cfdi.exportacion,
        series: cfdi.serie,
        folio_number: Number(`${year}${sequence}`),
        external_id: request.idempotencyKey,
        idempotency_key: request.idempotencyKey,
      }),
    )) as FacturapiInvoice;
  }

  return {
    name: "facturapi",
    sandbox: false,
    async stamp(request): Promise<StampedInvoice> {
      let invoice: FacturapiInvoice;
      try {
        // A try whose answer was lost may have been stamped: look for it before asking again.
        const earlier = request.resuming ? await findByExternalId(request.idempotencyKey) : null;
        invoice = earlier ?? (await create(request));
      } catch (error) {
        throw error instanceof InvoiceProviderUnavailable ? error : classify(error);
      }
      if (invoice.status !== "valid" || !invoice.uuid) {
        // 202: Facturapi keeps trying to stamp it; the next try finds it by its external id.
        throw new InvoiceProviderUnavailable(`invoice ${invoice.status}`);
      }
      let xml: string;
      try {
        xml = await call(async () => readText(await client.invoices.downloadXml(invoice.id)));
      } catch (error) {
        throw error instanceof InvoiceProviderUnavailable ? error : classify(error);
      }
      const total = amountOfNumber(invoice.total);
      if (total !== request.cfdi.total) {
        options.logger.error({
          msg: "PAC stamped a total other than the store's",
          provider: "facturapi",
          stamped: total,
          expected: request.cfdi.total,
        });
      }
      return {
        provider: "facturapi",
        providerInvoiceId: invoice.id,
        uuid: invoice.uuid.toUpperCase(),
        xml,
        total,
        stamp: {
          sandbox: false,
          selloCfd: invoice.stamp?.signature ?? attributeOf(xml, "Sello"),
          selloSat: invoice.stamp?.sat_signature ?? attributeOf(xml, "SelloSAT"),
          noCertificadoSat: invoice.stamp?.sat_cert_number ?? attributeOf(xml, "NoCertificadoSAT"),
          noCertificado: attributeOf(xml, "NoCertificado"),
          stampedAt: invoice.stamp?.date
            ? new Date(invoice.stamp.date).toISOString()
            : new Date().toISOString(),
          rfcProvCertif: attributeOf(xml, "RfcProvCertif"),
        },
      };
    },
    async cancel(providerInvoiceId, motive, substituteUuid) {
      let invoice: { status: string; cancellation_status?: string };
      try {
        invoice = await call(() =>
          client.invoices.cancel(providerInvoiceId, {
            motive: motive as Parameters<typeof client.invoices.cancel>[1]["motive"],
            ...(substituteUuid ? { substitution: substituteUuid } : {}),
          }),
        );
      } catch (error) {
        throw error instanceof InvoiceProviderUnavailable ? error : classify(error);
      }
      return invoice.status === "canceled" || invoice.cancellation_status === "accepted"
        ? { status: "accepted" }
        : { status: "pending" };
    },
  };
}
