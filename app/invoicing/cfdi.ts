import { mexicoCityTimestamp } from "~/lib/mexico-city-days";
import {
  CONCEPT_KEYS,
  IVA,
  type FormaPago,
  type RegimenFiscal,
  type UsoCfdi,
} from "./sat-catalogs";

/**
 * A CFDI 4.0 income invoice (Anexo 20) for what the store sold, built from the sale alone
 * (decision 0117): no clock, no randomness, no database. Amounts are counted in millionths of a
 * peso (integers), so that no floating point rounding reaches a total:
 *
 * - each concept's ValorUnitario is its price without IVA, to six decimals (price ÷ 1.16, rounded
 *   half up), its Importe the quantity times that, and its IVA (Base = Importe, tasa 0.160000)
 *   rounded to six decimals per concept;
 * - the comprobante's SubTotal, its IVA (the sum of the concepts' IVA) and their Base are rounded
 *   to the peso's two decimals, and Total = SubTotal − Descuento (none) + impuestos trasladados.
 *
 * For whole-peso prices that Total is the price paid to the cent (a unit test proves it over every
 * price and quantity the store sells), so the invoice never says a cent more or less than the
 * customer paid.
 */

export interface CfdiParty {
  rfc: string;
  name: string;
  regimen: RegimenFiscal;
}

export interface CfdiIssuer extends CfdiParty {
  /** LugarExpedicion: the código postal where the store issues its invoices. */
  postalCode: string;
}

export interface CfdiReceiver extends CfdiParty {
  /** DomicilioFiscalReceptor: the receiver's código postal fiscal. */
  postalCode: string;
  uso: UsoCfdi;
}

export interface CfdiItem {
  /** NoIdentificacion: the plan's id, or the top-up's amount key. */
  sku: string;
  description: string;
  quantity: number;
  /** Whole pesos, IVA included: what the customer paid for one. */
  unitPrice: number;
}

export interface CfdiRequest {
  series: string;
  folio: string;
  /** The instant of issue; written as Mexico City's wall clock. */
  issuedAt: string;
  issuer: CfdiIssuer;
  receiver: CfdiReceiver;
  formaPago: FormaPago;
  items: CfdiItem[];
}

/** An amount as the XML writes it: decimals as text ("171.551724", "199.00"). */
export type Amount = string;

export interface CfdiConcept {
  claveProdServ: string;
  noIdentificacion: string;
  cantidad: string;
  claveUnidad: string;
  unidad: string;
  descripcion: string;
  valorUnitario: Amount;
  importe: Amount;
  objetoImp: string;
  traslado: { base: Amount; importe: Amount };
}

export interface Cfdi {
  version: "4.0";
  serie: string;
  folio: string;
  /** Mexico City wall clock, "YYYY-MM-DDTHH:mm:ss". */
  fecha: string;
  formaPago: FormaPago;
  metodoPago: "PUE";
  moneda: "MXN";
  tipoDeComprobante: "I";
  exportacion: "01";
  lugarExpedicion: string;
  subTotal: Amount;
  total: Amount;
  emisor: CfdiParty;
  receptor: CfdiReceiver;
  conceptos: CfdiConcept[];
  impuestos: { totalImpuestosTrasladados: Amount; traslado: { base: Amount; importe: Amount } };
}

const MICROS = 1_000_000n;

/** n / d rounded half up (both positive). */
function divideRounded(n: bigint, d: bigint): bigint {
  const quotient = n / d;
  return (n % d) * 2n >= d ? quotient + 1n : quotient;
}

/** Millionths of a peso → "171.551724". */
function sixDecimals(micros: bigint): Amount {
  const whole = micros / MICROS;
  const fraction = (micros % MICROS).toString().padStart(6, "0");
  return `${whole}.${fraction}`;
}

/** Millionths of a peso rounded to cents → "171.55". */
function twoDecimals(micros: bigint): Amount {
  const cents = divideRounded(micros, 10_000n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

/** An amount a PAC's JSON gives as a number (118.5) → the CFDI's two-decimal amount ("118.50"). */
export function amountOfNumber(value: number): Amount {
  return twoDecimals(BigInt(Math.round(value * 100)) * 10_000n);
}

/** Cents of a two-decimal amount ("199.00" → 19900n). */
export function centsOf(amount: Amount): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}

/** Capitals, as SAT writes names in the Constancia and compares them. */
export function cfdiName(name: string): string {
  return name.toLocaleUpperCase("es-MX");
}

export function buildCfdi(request: CfdiRequest): Cfdi {
  if (request.items.length === 0) throw new RangeError("A CFDI needs at least one concept");
  let importeTotal = 0n;
  let ivaTotal = 0n;
  const conceptos = request.items.map((item): CfdiConcept => {
    if (!Number.isInteger(item.quantity) || item.quantity < 1) {
      throw new RangeError(`Not a quantity: ${item.quantity}`);
    }
    if (!Number.isInteger(item.unitPrice) || item.unitPrice < 1) {
      throw new RangeError(`Not a whole-peso price: ${item.unitPrice}`);
    }
    // price ÷ 1.16 = price × 100 / 116, in millionths of a peso.
    const valorUnitario = divideRounded(BigInt(item.unitPrice) * MICROS * 100n, 116n);
    const importe = valorUnitario * BigInt(item.quantity);
    const iva = divideRounded(importe * 16n, 100n);
    importeTotal += importe;
    ivaTotal += iva;
    return {
      claveProdServ: CONCEPT_KEYS.claveProdServ,
      noIdentificacion: item.sku,
      cantidad: String(item.quantity),
      claveUnidad: CONCEPT_KEYS.claveUnidad,
      unidad: CONCEPT_KEYS.unidad,
      descripcion: item.description,
      valorUnitario: sixDecimals(valorUnitario),
      importe: sixDecimals(importe),
      objetoImp: CONCEPT_KEYS.objetoImp,
      traslado: { base: sixDecimals(importe), importe: sixDecimals(iva) },
    };
  });
  const subTotal = twoDecimals(importeTotal);
  const totalIva = twoDecimals(ivaTotal);
  const totalCents = centsOf(subTotal) + centsOf(totalIva);
  return {
    version: "4.0",
    serie: request.series,
    folio: request.folio,
    fecha: mexicoCityTimestamp(request.issuedAt),
    formaPago: request.formaPago,
    metodoPago: "PUE",
    moneda: "MXN",
    tipoDeComprobante: "I",
    exportacion: "01",
    lugarExpedicion: request.issuer.postalCode,
    subTotal,
    total: `${totalCents / 100n}.${(totalCents % 100n).toString().padStart(2, "0")}`,
    emisor: {
      rfc: request.issuer.rfc,
      name: cfdiName(request.issuer.name),
      regimen: request.issuer.regimen,
    },
    receptor: { ...request.receiver, name: cfdiName(request.receiver.name) },
    conceptos,
    impuestos: {
      totalImpuestosTrasladados: totalIva,
      traslado: { base: subTotal, importe: totalIva },
    },
  };
}

export const CFDI_NAMESPACE = "http://www.sat.gob.mx/cfd/4";
export const CFDI_SCHEMA_LOCATION = "http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd";
/** The namespace of the sandbox's addenda, which says the document has no fiscal validity. */
export const SANDBOX_NAMESPACE = "https://www.conectamovil.mx/cfdi/prueba/1";

/** What the sandbox writes where a PAC's seal would go: nothing sealed, said so. */
export interface SandboxMark {
  /** The sandbox's UUID for this invoice (no SAT folio fiscal: it never reached SAT). */
  uuid: string;
  legend: string;
}

/** No certificate: twenty zeros where a CSD's serial number goes. */
export const UNSEALED_CERTIFICATE_NUMBER = "0".repeat(20);

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

function element(
  name: string,
  attributes: Record<string, string | undefined>,
  children: string[] | null = null,
  indent = "",
): string {
  const written = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join("");
  if (!children || children.length === 0) return `${indent}<${name}${written}/>`;
  return `${indent}<${name}${written}>\n${children.join("\n")}\n${indent}</${name}>`;
}

function traslado(
  name: string,
  { base, importe }: { base: Amount; importe: Amount },
  indent: string,
): string {
  return element(
    name,
    {
      Base: base,
      Impuesto: IVA.impuesto,
      TipoFactor: IVA.tipoFactor,
      TasaOCuota: IVA.tasaOCuota,
      Importe: importe,
    },
    null,
    indent,
  );
}

/**
 * The CFDI's XML, unsealed: the PAC adds the seal and the Timbre Fiscal Digital. `sandbox` marks
 * it as the sandbox's: an XML comment and an Addenda that say "sin validez fiscal" (both valid
 * against cfdv40.xsd, the Addenda with its own small schema), an empty Sello and Certificado.
 */
export function cfdiXml(cfdi: Cfdi, sandbox: SandboxMark): string {
  const conceptos = cfdi.conceptos.map((concepto) =>
    element(
      "cfdi:Concepto",
      {
        ClaveProdServ: concepto.claveProdServ,
        NoIdentificacion: concepto.noIdentificacion,
        Cantidad: concepto.cantidad,
        ClaveUnidad: concepto.claveUnidad,
        Unidad: concepto.unidad,
        Descripcion: concepto.descripcion,
        ValorUnitario: concepto.valorUnitario,
        Importe: concepto.importe,
        ObjetoImp: concepto.objetoImp,
      },
      [
        element(
          "cfdi:Impuestos",
          {},
          [
            element(
              "cfdi:Traslados",
              {},
              [traslado("cfdi:Traslado", concepto.traslado, "          ")],
              "        ",
            ),
          ],
          "      ",
        ),
      ],
      "    ",
    ),
  );
  const body = [
    `  <!-- ${sandbox.legend} -->`,
    element(
      "cfdi:Emisor",
      { Rfc: cfdi.emisor.rfc, Nombre: cfdi.emisor.name, RegimenFiscal: cfdi.emisor.regimen },
      null,
      "  ",
    ),
    element(
      "cfdi:Receptor",
      {
        Rfc: cfdi.receptor.rfc,
        Nombre: cfdi.receptor.name,
        DomicilioFiscalReceptor: cfdi.receptor.postalCode,
        RegimenFiscalReceptor: cfdi.receptor.regimen,
        UsoCFDI: cfdi.receptor.uso,
      },
      null,
      "  ",
    ),
    element("cfdi:Conceptos", {}, conceptos, "  "),
    element(
      "cfdi:Impuestos",
      { TotalImpuestosTrasladados: cfdi.impuestos.totalImpuestosTrasladados },
      [
        element(
          "cfdi:Traslados",
          {},
          [traslado("cfdi:Traslado", cfdi.impuestos.traslado, "      ")],
          "    ",
        ),
      ],
      "  ",
    ),
    element(
      "cfdi:Addenda",
      {},
      [
        element(
          "prueba:SinValidezFiscal",
          { "xmlns:prueba": SANDBOX_NAMESPACE, UUID: sandbox.uuid, Leyenda: sandbox.legend },
          null,
          "    ",
        ),
      ],
      "  ",
    ),
  ];
  const root = element(
    "cfdi:Comprobante",
    {
      "xmlns:cfdi": CFDI_NAMESPACE,
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation": `${CFDI_NAMESPACE} ${CFDI_SCHEMA_LOCATION}`,
      Version: cfdi.version,
      Serie: cfdi.serie,
      Folio: cfdi.folio,
      Fecha: cfdi.fecha,
      Sello: "",
      FormaPago: cfdi.formaPago,
      NoCertificado: UNSEALED_CERTIFICATE_NUMBER,
      Certificado: "",
      SubTotal: cfdi.subTotal,
      Moneda: cfdi.moneda,
      Total: cfdi.total,
      TipoDeComprobante: cfdi.tipoDeComprobante,
      Exportacion: cfdi.exportacion,
      MetodoPago: cfdi.metodoPago,
      LugarExpedicion: cfdi.lugarExpedicion,
    },
    body,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}

/**
 * SAT's verification address of a CFDI (Anexo 20, the printed representation's QR code): its
 * UUID, the issuer's and receiver's RFC, the total without insignificant zeros, and the last eight
 * characters of the issuer's seal (empty for the sandbox's, which has none).
 */
export function satVerificationUrl(input: {
  uuid: string;
  issuerRfc: string;
  receiverRfc: string;
  total: Amount;
  sello: string;
}): string {
  const [whole, fraction = "0"] = input.total.split(".");
  const trimmed = fraction.replace(/0+$/, "") || "0";
  const params = [
    `id=${encodeURIComponent(input.uuid)}`,
    `re=${encodeURIComponent(input.issuerRfc)}`,
    `rr=${encodeURIComponent(input.receiverRfc)}`,
    `tt=${BigInt(whole)}.${trimmed}`,
    `fe=${encodeURIComponent(input.sello.slice(-8))}`,
  ];
  return `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?${params.join("&")}`;
}
