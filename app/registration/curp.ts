import { isIsoDate, todayInMexico } from "~/lib/mexico-city-days";

/**
 * The one CURP check of the store (Clave Única de Registro de Población, RENAPO): the line
 * registration and the portability form both use it (decision 0095). 18 characters:
 *
 *   1–4   initials: first letter and first inner vowel of the first surname (X when it has
 *         none), initial of the second surname (X when there is none), initial of the name
 *   5–10  date of birth, YYMMDD
 *   11    sex: H, M, or X (non-binary, issued by RENAPO since 2023)
 *   12–13 state of birth, RENAPO's two-letter code, NE for people born abroad
 *   14–16 first inner consonant of the first surname, the second surname and the name
 *   17    homonym character, which also tells the century: a digit for births up to 1999,
 *         a letter from 2000 on
 *   18    check digit computed from the other 17 (RENAPO's algorithm, `curpCheckDigit`)
 *
 * Each fault has its own name so that the form can say which part is wrong.
 */

export const CURP_LENGTH = 18;

/** RENAPO's codes of the states of birth ("DF" is still Ciudad de México's), and NE. */
export const CURP_STATES = {
  AS: "Aguascalientes",
  BC: "Baja California",
  BS: "Baja California Sur",
  CC: "Campeche",
  CL: "Coahuila",
  CM: "Colima",
  CS: "Chiapas",
  CH: "Chihuahua",
  DF: "Ciudad de México",
  DG: "Durango",
  GT: "Guanajuato",
  GR: "Guerrero",
  HG: "Hidalgo",
  JC: "Jalisco",
  MC: "Estado de México",
  MN: "Michoacán",
  MS: "Morelos",
  NT: "Nayarit",
  NL: "Nuevo León",
  OC: "Oaxaca",
  PL: "Puebla",
  QT: "Querétaro",
  QR: "Quintana Roo",
  SP: "San Luis Potosí",
  SL: "Sinaloa",
  SR: "Sonora",
  TC: "Tabasco",
  TS: "Tamaulipas",
  TL: "Tlaxcala",
  VZ: "Veracruz",
  YN: "Yucatán",
  ZS: "Zacatecas",
  NE: "Nacido en el extranjero",
} as const;
export type CurpState = keyof typeof CURP_STATES;

export const CURP_SEXES = ["H", "M", "X"] as const;
export type CurpSex = (typeof CURP_SEXES)[number];

/** Why a CURP was refused, in the order the check looks: the first fault found is the one told. */
export const CURP_FAULTS = [
  "length",
  "characters",
  "initials",
  "birth-date",
  "sex",
  "state",
  "consonants",
  "check-digit",
] as const;
export type CurpFault = (typeof CURP_FAULTS)[number];

export type CurpCheck =
  | { ok: true; curp: string; birthDate: string; sex: CurpSex; state: CurpState }
  | { ok: false; fault: CurpFault };

const CHECK_ALPHABET = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ";
const INITIALS = /^[A-Z][AEIOUX][A-Z]{2}$/;
const INNER_CONSONANTS = /^[B-DF-HJ-NP-TV-Z]{3}$/;

/** " goma 850312…" → "GOMA850312…": CURPs are typed by hand, copied with spaces, in lower case. */
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

/** The date of birth a CURP encodes (YYYY-MM-DD), the century read from the homonym character. */
function birthDateOf(curp: string): string | null {
  const digits = curp.slice(4, 10);
  if (!/^\d{6}$/.test(digits)) return null;
  const century = /\d/.test(curp[16]) ? "19" : "20";
  const date = `${century}${digits.slice(0, 2)}-${digits.slice(2, 4)}-${digits.slice(4, 6)}`;
  return isIsoDate(date) ? date : null;
}

const isSex = (value: string): value is CurpSex =>
  (CURP_SEXES as readonly string[]).includes(value);
const isState = (value: string): value is CurpState => Object.hasOwn(CURP_STATES, value);

/**
 * Checks a CURP as typed (normalised first). `today` (YYYY-MM-DD, Mexico City) bounds the date of
 * birth: nobody registers a line for a person not yet born.
 */
export function checkCurp(value: string, today: string = todayInMexico()): CurpCheck {
  const curp = normalizeCurp(value);
  if (curp.length !== CURP_LENGTH) return { ok: false, fault: "length" };
  if (!/^[A-Z0-9]+$/.test(curp)) return { ok: false, fault: "characters" };
  if (!INITIALS.test(curp.slice(0, 4))) return { ok: false, fault: "initials" };
  const birthDate = birthDateOf(curp);
  if (!birthDate || birthDate > today) return { ok: false, fault: "birth-date" };
  const sex = curp[10];
  if (!isSex(sex)) return { ok: false, fault: "sex" };
  const state = curp.slice(11, 13);
  if (!isState(state)) return { ok: false, fault: "state" };
  if (!INNER_CONSONANTS.test(curp.slice(13, 16))) return { ok: false, fault: "consonants" };
  if (curp[17] !== String(curpCheckDigit(curp.slice(0, 17)))) {
    return { ok: false, fault: "check-digit" };
  }
  return { ok: true, curp, birthDate, sex, state };
}

export function isValidCurp(value: string, today?: string): boolean {
  return checkCurp(value, today).ok;
}

/** "GOMA••••••••••••05": the first 4 and the last 2 characters, all that a list may show. */
export function maskCurp(curp: string): string {
  return `${curp.slice(0, 4)}${"•".repeat(Math.max(curp.length - 6, 0))}${curp.slice(-2)}`;
}
