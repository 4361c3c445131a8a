import type { CfdiRequest } from "~/invoicing/cfdi";

/** A sale to invoice: two plans and a top-up, to SAT's test persona física. */
export const SAMPLE: CfdiRequest = {
  series: "FAC",
  folio: "2026-000001",
  issuedAt: "2026-11-27T18:05:09Z",
  issuer: {
    rfc: "EKU9003173C9",
    name: "Escuela Kemper Urgate",
    regimen: "601",
    postalCode: "42501",
  },
  receiver: {
    rfc: "CACX7605101P8",
    name: "Xochilt Casas Chavez",
    regimen: "612",
    postalCode: "10740",
    uso: "G03",
  },
  formaPago: "04",
  items: [
    { sku: "conecta-200", description: "Plan Conecta 200", quantity: 2, unitPrice: 199 },
    { sku: "recarga-100", description: "Recarga", quantity: 1, unitPrice: 100 },
  ],
};
