/** A WhatsApp chat link that opens with a prefilled message. */
export function whatsAppLink(number: string, message?: string): string {
  const base = `https://wa.me/${number.replace(/\D/g, "")}`;
  return message ? `${base}?text=${encodeURIComponent(message)}` : base;
}

/** The legal documents offered in the footer; each is built into /docs/<slug>.pdf. */
export const LEGAL_DOCUMENTS = [
  "contrato-de-adhesion",
  "codigo-de-practicas-comerciales",
  "carta-de-derechos",
  "politica-de-uso-justo",
  "politica-de-gestion-de-trafico",
  "portabilidad",
  "aviso-de-privacidad",
  "tarifas",
] as const;

export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

export function legalDocumentPath(slug: LegalDocument): string {
  return `/docs/${slug}.pdf`;
}

/** Spec §9: the footer shows the year 2025. */
export const FOOTER_YEAR = 2025;
