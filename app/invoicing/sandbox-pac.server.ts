import { createHash } from "node:crypto";
import { nameMatchesCurp } from "~/registration/curp-initials";
import { cfdiXml, UNSEALED_CERTIFICATE_NUMBER, type Cfdi } from "./cfdi";
import {
  InvoiceRefused,
  REFUSAL_FIELDS,
  type InvoiceProvider,
  type RefusalReason,
  type StampedInvoice,
} from "./provider";

/**
 * The embedded invoicing sandbox (decision 0118): it builds the same CFDI 4.0 XML the store sends
 * a PAC, seals nothing and reaches nobody. Its XML says "sin validez fiscal" in a comment and in
 * an addenda, carries an empty Sello and Certificado and no Timbre Fiscal Digital, and its UUID is
 * the sandbox's own (derived from the request's idempotency key, so a try repeated under the same
 * key gets the same invoice). In production it runs only with ALLOW_SANDBOX_INVOICES=true.
 *
 * It refuses the way a PAC does, by rules a tester can follow:
 */
export const SANDBOX_TEST_RFCS = {
  /** Not in SAT's list of registered RFCs (persona física and persona moral). */
  notFound: ["NOEN010101AA5", "NEM010101AA0"],
  /** A persona física registered only under 605 (sueldos y salarios): any other régimen is refused. */
  salariedOnly: "ASAL010101AA3",
} as const;

/** What the sandbox says instead of a seal. */
export const SANDBOX_LEGEND =
  "SIN VALIDEZ FISCAL: comprobante de prueba emitido por el entorno de pruebas de Conecta Móvil; no se envió al SAT.";

/** Why the sandbox refuses a receiver, if it does (the rules above). */
export function sandboxRefusal(cfdi: Cfdi): RefusalReason | null {
  const { receptor } = cfdi;
  if ((SANDBOX_TEST_RFCS.notFound as readonly string[]).includes(receptor.rfc)) {
    return "tax_id_not_found";
  }
  if (receptor.rfc === SANDBOX_TEST_RFCS.salariedOnly) {
    return receptor.regimen === "605" ? null : "tax_system_not_allowed_for_tax_id";
  }
  // A persona física's RFC begins with the initials of the name (the rule RENAPO's CURP shares).
  if (receptor.rfc.length === 13 && !nameMatchesCurp(receptor.name, receptor.rfc)) {
    return "legal_name_mismatch";
  }
  // No Mexican código postal begins with 00.
  if (receptor.postalCode.startsWith("00")) return "tax_address_zip_mismatch";
  return null;
}

/** A version-4-shaped UUID from the key: the same key, the same UUID. */
export function sandboxUuid(idempotencyKey: string): string {
  const hex = createHash("sha256").update(`cfdi-sandbox:${idempotencyKey}`).digest("hex");
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ]
    .join("-")
    .toUpperCase();
}

export function createSandboxPac(now: () => Date = () => new Date()): InvoiceProvider {
  return {
    name: "sandbox",
    sandbox: true,
    async stamp({ cfdi, idempotencyKey }): Promise<StampedInvoice> {
      const reason = sandboxRefusal(cfdi);
      if (reason) {
        throw new InvoiceRefused({
          reason,
          field: REFUSAL_FIELDS[reason],
          code: `sandbox:${reason}`,
          message: null,
        });
      }
      const uuid = sandboxUuid(idempotencyKey);
      return {
        provider: "sandbox",
        providerInvoiceId: `sandbox_${uuid.toLowerCase()}`,
        uuid,
        xml: cfdiXml(cfdi, { uuid, legend: SANDBOX_LEGEND }),
        total: cfdi.total,
        stamp: {
          sandbox: true,
          selloCfd: "",
          selloSat: "",
          noCertificadoSat: "",
          noCertificado: UNSEALED_CERTIFICATE_NUMBER,
          stampedAt: now().toISOString(),
          rfcProvCertif: "",
        },
      };
    },
    async cancel() {
      return { status: "accepted" };
    },
  };
}
