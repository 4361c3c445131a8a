import type { RfcKind } from "~/registration/rfc";

/**
 * The parts of SAT's CFDI 4.0 catalogues (catCFDI, Anexo 20) the store's invoices use, as data
 * (decision 0117). Each list says where it comes from; the descriptions are SAT's own wording,
 * shown to the customer in Spanish as the Constancia de Situación Fiscal prints them.
 */

/**
 * c_RegimenFiscal: each régimen and whether SAT lets a persona física (13-character RFC) or a
 * persona moral (12 characters) hold it. Vigentes in catCFDI since CFDI 4.0 (2022-01-01).
 */
export const REGIMENES_FISCALES = [
  { key: "601", name: "General de Ley Personas Morales", fisica: false, moral: true },
  { key: "603", name: "Personas Morales con Fines no Lucrativos", fisica: false, moral: true },
  {
    key: "605",
    name: "Sueldos y Salarios e Ingresos Asimilados a Salarios",
    fisica: true,
    moral: false,
  },
  { key: "606", name: "Arrendamiento", fisica: true, moral: false },
  {
    key: "607",
    name: "Régimen de Enajenación o Adquisición de Bienes",
    fisica: true,
    moral: false,
  },
  { key: "608", name: "Demás ingresos", fisica: true, moral: false },
  {
    key: "610",
    name: "Residentes en el Extranjero sin Establecimiento Permanente en México",
    fisica: true,
    moral: true,
  },
  {
    key: "611",
    name: "Ingresos por Dividendos (socios y accionistas)",
    fisica: true,
    moral: false,
  },
  {
    key: "612",
    name: "Personas Físicas con Actividades Empresariales y Profesionales",
    fisica: true,
    moral: false,
  },
  { key: "614", name: "Ingresos por intereses", fisica: true, moral: false },
  {
    key: "615",
    name: "Régimen de los ingresos por obtención de premios",
    fisica: true,
    moral: false,
  },
  { key: "616", name: "Sin obligaciones fiscales", fisica: true, moral: false },
  {
    key: "620",
    name: "Sociedades Cooperativas de Producción que optan por diferir sus ingresos",
    fisica: false,
    moral: true,
  },
  { key: "621", name: "Incorporación Fiscal", fisica: true, moral: false },
  {
    key: "622",
    name: "Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras",
    fisica: false,
    moral: true,
  },
  { key: "623", name: "Opcional para Grupos de Sociedades", fisica: false, moral: true },
  { key: "624", name: "Coordinados", fisica: false, moral: true },
  {
    key: "625",
    name: "Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas",
    fisica: true,
    moral: false,
  },
  { key: "626", name: "Régimen Simplificado de Confianza", fisica: true, moral: true },
] as const;

export type RegimenFiscal = (typeof REGIMENES_FISCALES)[number]["key"];

export const REGIMEN_KEYS = REGIMENES_FISCALES.map((regimen) => regimen.key) as RegimenFiscal[];

export function isRegimenFiscal(value: string): value is RegimenFiscal {
  return (REGIMEN_KEYS as string[]).includes(value);
}

/** Whether SAT lets a persona física (or moral) hold this régimen. */
export function regimenAllowsKind(regimen: RegimenFiscal, kind: RfcKind): boolean {
  const entry = REGIMENES_FISCALES.find((candidate) => candidate.key === regimen)!;
  return entry[kind];
}

export function regimenName(regimen: string): string {
  return REGIMENES_FISCALES.find((candidate) => candidate.key === regimen)?.name ?? regimen;
}

/** The regímenes of the catalogue's column "Régimen Fiscal Receptor" that recur below. */
const BUSINESS: readonly RegimenFiscal[] = [
  "601",
  "603",
  "606",
  "612",
  "620",
  "621",
  "622",
  "623",
  "624",
  "625",
  "626",
];
const PERSONAL_DEDUCTIONS: readonly RegimenFiscal[] = [
  "605",
  "606",
  "608",
  "611",
  "612",
  "614",
  "607",
  "615",
  "625",
];
const ANY_RECEIVER: readonly RegimenFiscal[] = [
  "601",
  "603",
  "605",
  "606",
  "608",
  "610",
  "611",
  "612",
  "614",
  "616",
  "620",
  "621",
  "622",
  "623",
  "624",
  "607",
  "615",
  "625",
  "626",
];

/**
 * c_UsoCFDI for an income (tipo I) invoice: each use, who may take it and the receiver's regímenes
 * SAT allows with it (the catalogue's "Régimen Fiscal Receptor" column, CFDI 4.0). Left out: G02
 * (devoluciones, an egreso's use), CP01 (a payment complement's) and CN01 (payroll's).
 */
export const USOS_CFDI = [
  { key: "G01", name: "Adquisición de mercancías", regimenes: BUSINESS },
  { key: "G03", name: "Gastos en general", regimenes: BUSINESS },
  { key: "I01", name: "Construcciones", regimenes: BUSINESS },
  { key: "I02", name: "Mobiliario y equipo de oficina por inversiones", regimenes: BUSINESS },
  { key: "I03", name: "Equipo de transporte", regimenes: BUSINESS },
  { key: "I04", name: "Equipo de cómputo y accesorios", regimenes: BUSINESS },
  { key: "I05", name: "Dados, troqueles, moldes, matrices y herramental", regimenes: BUSINESS },
  { key: "I06", name: "Comunicaciones telefónicas", regimenes: BUSINESS },
  { key: "I07", name: "Comunicaciones satelitales", regimenes: BUSINESS },
  { key: "I08", name: "Otra maquinaria y equipo", regimenes: BUSINESS },
  {
    key: "D01",
    name: "Honorarios médicos, dentales y gastos hospitalarios",
    regimenes: PERSONAL_DEDUCTIONS,
  },
  {
    key: "D02",
    name: "Gastos médicos por incapacidad o discapacidad",
    regimenes: PERSONAL_DEDUCTIONS,
  },
  { key: "D03", name: "Gastos funerales", regimenes: PERSONAL_DEDUCTIONS },
  { key: "D04", name: "Donativos", regimenes: PERSONAL_DEDUCTIONS },
  {
    key: "D05",
    name: "Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)",
    regimenes: PERSONAL_DEDUCTIONS,
  },
  { key: "D06", name: "Aportaciones voluntarias al SAR", regimenes: PERSONAL_DEDUCTIONS },
  { key: "D07", name: "Primas por seguros de gastos médicos", regimenes: PERSONAL_DEDUCTIONS },
  {
    key: "D08",
    name: "Gastos de transportación escolar obligatoria",
    regimenes: PERSONAL_DEDUCTIONS,
  },
  {
    key: "D09",
    name: "Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones",
    regimenes: PERSONAL_DEDUCTIONS,
  },
  {
    key: "D10",
    name: "Pagos por servicios educativos (colegiaturas)",
    regimenes: PERSONAL_DEDUCTIONS,
  },
  { key: "S01", name: "Sin efectos fiscales", regimenes: ANY_RECEIVER },
] as const;

export type UsoCfdi = (typeof USOS_CFDI)[number]["key"];

export const USO_KEYS = USOS_CFDI.map((uso) => uso.key) as UsoCfdi[];

export function isUsoCfdi(value: string): value is UsoCfdi {
  return (USO_KEYS as string[]).includes(value);
}

/** Whether SAT allows this use of the CFDI to a receiver of this régimen. */
export function usoAllowedFor(uso: UsoCfdi, regimen: RegimenFiscal): boolean {
  const entry = USOS_CFDI.find((candidate) => candidate.key === uso)!;
  return (entry.regimenes as readonly string[]).includes(regimen);
}

export function usoName(uso: string): string {
  return USOS_CFDI.find((candidate) => candidate.key === uso)?.name ?? uso;
}

/**
 * c_FormaPago of how the store was paid: card (credit 04, debit 28: the customer says which, since
 * the payment records keep only the brand and the last four digits), cash at a store 01, SPEI 03.
 */
export const FORMAS_PAGO = {
  cash: "01",
  spei: "03",
  credit: "04",
  debit: "28",
} as const;
export type FormaPago = (typeof FORMAS_PAGO)[keyof typeof FORMAS_PAGO];

export const FORMA_PAGO_NAMES: Record<FormaPago, string> = {
  "01": "Efectivo",
  "03": "Transferencia electrónica de fondos",
  "04": "Tarjeta de crédito",
  "28": "Tarjeta de débito",
};

/** The card kinds the form asks about when the payment was by card. */
export const CARD_KINDS = ["credito", "debito"] as const;
export type CardKind = (typeof CARD_KINDS)[number];

/**
 * What every concept of the store's invoices is (decision 0117): c_ClaveProdServ 83111603
 * "Servicios de telefonía celular" (a plan, its SIM included at no charge, and a top-up are both
 * mobile service) in c_ClaveUnidad E48 "Unidad de servicio"; ObjetoImp 02 (sí objeto de impuesto),
 * IVA (002) at the 16 % rate, broken out of prices that include it.
 */
export const CONCEPT_KEYS = {
  claveProdServ: "83111603",
  claveUnidad: "E48",
  unidad: "Unidad de servicio",
  objetoImp: "02",
} as const;

export const IVA = { impuesto: "002", tipoFactor: "Tasa", tasaOCuota: "0.160000", rate: 0.16 };

/** c_Motivo de cancelación (CFDI 4.0 cancellation scheme, since 2022). */
export const CANCELLATION_MOTIVES = {
  "01": "Comprobante emitido con errores con relación",
  "02": "Comprobante emitido con errores sin relación",
  "03": "No se llevó a cabo la operación",
  "04": "Operación nominativa relacionada en una factura global",
} as const;
export type CancellationMotive = keyof typeof CANCELLATION_MOTIVES;

export function isCancellationMotive(value: string): value is CancellationMotive {
  return Object.hasOwn(CANCELLATION_MOTIVES, value);
}
