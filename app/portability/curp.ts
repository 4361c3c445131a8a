/**
 * CURP (Clave Única de Registro de Población): 18 characters — initials, birth date, sex, state
 * of birth, inner consonants, a homonym character and a check digit (RENAPO's algorithm).
 */
const STATES =
  "AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE";
export const CURP_PATTERN = new RegExp(
  `^[A-Z][AEIOUX][A-Z]{2}\\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])[HMX](${STATES})[B-DF-HJ-NP-TV-Z]{3}[A-Z\\d]\\d$`,
);
const CHECK_ALPHABET = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ";

export function normalizeCurp(value: string): string {
  return value.trim().toUpperCase().replace(/\s+/g, "");
}

/** The check digit RENAPO computes from the first 17 characters. */
export function curpCheckDigit(first17: string): number {
  let sum = 0;
  for (let index = 0; index < 17; index++) {
    sum += CHECK_ALPHABET.indexOf(first17[index]) * (18 - index);
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCurp(value: string): boolean {
  const curp = normalizeCurp(value);
  if (!CURP_PATTERN.test(curp)) return false;
  return curpCheckDigit(curp.slice(0, 17)) === Number(curp[17]);
}
