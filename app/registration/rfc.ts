import { isIsoDate } from "~/lib/mexico-city-days";

/**
 * The RFC check (Registro Federal de Contribuyentes, SAT), in the form SAT's CFDI schema publishes
 * (`[A-Z&Ñ]{3,4}[0-9]{2}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])[A-Z0-9]{2}[0-9A]`):
 *
 *   persona moral   12 characters: 3 letters of the name (Ñ and & included), the date of
 *                   incorporation YYMMDD, a 2-character homoclave and the check digit
 *   persona física  13 characters: the same with 4 letters and the date of birth
 *
 * plus a real date and the check digit by SAT's algorithm (`rfcCheckDigit`). The two generic RFCs
 * SAT lets an invoice carry when there is no RFC are nobody's: they never identify a holder.
 * Written here rather than taken from @nodecfdi/rfc, which the tests use as the reference: that
 * library brings luxon (~23 KB gzip) into every browser bundle the form is in (decision 0095).
 */

export type RfcKind = "fisica" | "moral";

/** "Público en general" and "residente en el extranjero": SAT's stand-ins, not a taxpayer's. */
export const GENERIC_RFCS = ["XAXX010101000", "XEXX010101000"] as const;

/** Why an RFC was refused, in the order the check looks. */
export const RFC_FAULTS = [
  "length",
  "characters",
  "generic",
  "kind",
  "name",
  "date",
  "homoclave",
  "check-digit",
] as const;
export type RfcFault = (typeof RFC_FAULTS)[number];

export type RfcCheck = { ok: true; rfc: string; kind: RfcKind } | { ok: false; fault: RfcFault };

const LENGTH_OF: Record<RfcKind, number> = { moral: 12, fisica: 13 };

/** SAT's values of the characters: 0–9, A–N 10–23, & 24, O–Z 25–36, space 37, Ñ 38. */
const CHECK_ALPHABET = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ";

/** " abc-850101-xx1 " → "ABC850101XX1": RFCs are written with hyphens and spaces. */
export function normalizeRfc(value: string): string {
  return value
    .normalize("NFC")
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "");
}

/**
 * The check digit SAT computes from the RFC without it (11 characters for a persona moral, 12 for
 * a persona física): a moral's is read as if it began with a space, so both weigh 13 down to 2.
 */
export function rfcCheckDigit(withoutCheckDigit: string): string {
  const padded = withoutCheckDigit.padStart(12, " ");
  let sum = 0;
  for (let index = 0; index < 12; index++) {
    sum += CHECK_ALPHABET.indexOf(padded[index]) * (13 - index);
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? "0" : digit === 10 ? "A" : String(digit);
}

/** Checks an RFC as typed (normalised first); `expected` when the field asks for one kind. */
export function checkRfc(value: string, expected?: RfcKind): RfcCheck {
  const rfc = normalizeRfc(value);
  if (rfc.length !== 12 && rfc.length !== 13) return { ok: false, fault: "length" };
  if (!/^[A-Z0-9Ñ&]+$/.test(rfc)) return { ok: false, fault: "characters" };
  if ((GENERIC_RFCS as readonly string[]).includes(rfc)) return { ok: false, fault: "generic" };
  const kind: RfcKind = rfc.length === LENGTH_OF.moral ? "moral" : "fisica";
  if (expected && expected !== kind) return { ok: false, fault: "kind" };
  const nameLength = rfc.length - 9;
  if (!/^[A-ZÑ&]+$/.test(rfc.slice(0, nameLength))) return { ok: false, fault: "name" };
  const date = rfc.slice(nameLength, nameLength + 6);
  // Two digits of year: 00-02-29 is real in 2000, and no other date depends on the century.
  const isoDate = `20${date.slice(0, 2)}-${date.slice(2, 4)}-${date.slice(4, 6)}`;
  if (!/^\d{6}$/.test(date) || !isIsoDate(isoDate)) return { ok: false, fault: "date" };
  if (!/^[A-Z0-9]{2}$/.test(rfc.slice(-3, -1))) return { ok: false, fault: "homoclave" };
  if (rfc.slice(-1) !== rfcCheckDigit(rfc.slice(0, -1))) return { ok: false, fault: "check-digit" };
  return { ok: true, rfc, kind };
}

export function isValidRfc(value: string, expected?: RfcKind): boolean {
  return checkRfc(value, expected).ok;
}
