// Valid Mexican form data for the simulated customers, built with the very check digits the forms
// verify (app/registration/curp.ts, app/lib/luhn.ts), so that every submission the soak means to be
// accepted is accepted.
import { tsImport } from "tsx/esm/api";

const { curpCheckDigit, maskCurp } = await tsImport(
  "../../app/registration/curp.ts",
  import.meta.url,
);
const { curpInitials, nameMatchesCurp } = await tsImport(
  "../../app/registration/curp-initials.ts",
  import.meta.url,
);
const { passesLuhn } = await tsImport("../../app/lib/luhn.ts", import.meta.url);

export const pick = (items) => items[Math.floor(Math.random() * items.length)];
export const chance = (probability) => Math.random() < probability;
const digits = (count) =>
  Array.from({ length: count }, () => Math.floor(Math.random() * 10)).join("");
const pad = (value, width) => String(value).padStart(width, "0");

/** The documented card the sandbox approves; any future expiry and 3-digit CVC go with it. */
export const APPROVED_CARD = "4242 4242 4242 4242";

export function cardForm() {
  const nextYear = (new Date().getUTCFullYear() + 3) % 100;
  return {
    card_number: APPROVED_CARD,
    card_expiry: `12/${pad(nextYear, 2)}`,
    card_cvc: digits(3),
    cardholder_name: pick(["Ana Lopez", "Juan Perez", "Maria Garcia", "Luis Hernandez"]),
  };
}

export function checkoutForm(email, idempotencyKey) {
  return {
    full_name: pick(["Ana López Hernández", "Juan Pérez García", "María Fernanda Ruiz"]),
    email,
    phone_number: `55 ${digits(4)} ${digits(4)}`,
    street: "Av. Insurgentes Sur",
    exterior_number: String(1 + Math.floor(Math.random() * 3000)),
    interior_number: chance(0.5) ? "5B" : "",
    neighborhood: "Del Valle",
    postal_code: "03100",
    municipality: "Benito Juárez",
    state: pick(["CMX", "JAL", "NLE", "PUE", "YUC"]),
    accept_terms: "on",
    idempotency_key: idempotencyKey,
  };
}

/** A CURP that passes the form's pattern and check digit (initials, birth date, sex, state…). */
export function validCurp() {
  const initials = pick(["GOMA", "LOHA", "PEGJ", "RUMF", "SAVM", "HEXL"]);
  const birth = `${pad(50 + Math.floor(Math.random() * 50), 2)}${pad(1 + Math.floor(Math.random() * 12), 2)}${pad(1 + Math.floor(Math.random() * 28), 2)}`;
  const first17 = `${initials}${birth}${pick(["H", "M"])}${pick(["DF", "JC", "NL", "PL", "YN"])}${pick(["RRN", "NTL", "SDR", "MRT"])}0`;
  return `${first17}${curpCheckDigit(first17)}`;
}

/** A 19-digit ICCID of a Mexican SIM (89 52 …) with its Luhn check digit. */
export function validIccid() {
  const first18 = `8952${digits(14)}`;
  for (let check = 0; check <= 9; check++) {
    if (passesLuhn(`${first18}${check}`)) return `${first18}${check}`;
  }
  throw new Error("unreachable: one check digit always passes");
}

/**
 * A number of its own for every portability journey (a number can have only one open request):
 * 3 + the customer's index + the customer's own serial, ten digits in all.
 */
export function portabilityNumber(customerIndex, serial) {
  return `3${pad(customerIndex, 3)}${pad(serial, 6)}`;
}

/** The two lines a customer tops up, alternately: 55 + index + 00 + 1 or 2. */
export function topupLines(customerIndex) {
  return [1, 2].map((line) => `55${pad(customerIndex, 5)}00${line}`);
}

export const CARRIERS = ["telcel", "att", "movistar", "unefon", "bait", "izzi", "otro"];
export const TOPUP_AMOUNTS = [20, 30, 50, 100, 150, 200, 300, 500];

const GIVEN_NAMES = [
  "Ana",
  "Luis",
  "María Fernanda",
  "Jorge",
  "Sofía",
  "Ricardo",
  "Valeria",
  "Héctor",
];
const SURNAMES = [
  "Gómez",
  "López",
  "Hernández",
  "Ruiz",
  "Soto",
  "Martínez",
  "Vega",
  "Castillo",
  "Navarro",
  "Ortega",
  "Núñez",
];
const DAY_MS = 86_400_000;
/** Holders a customer may register lines to: their own (0), and relatives who take a line over. */
export const HOLDERS_PER_CUSTOMER = 4;

/**
 * The holder `variant` of a customer (0: the customer themself): a persona física whose name has
 * the CURP's initials (RENAPO's rule, app/registration/curp-initials.ts, which the sandbox
 * validation checks) and a CURP of their own, its birth date telling customers and variants apart.
 * `holderKeyMasked` is the CURP as the store shows it (first 4 and last 2 characters).
 */
export function registrationHolder(customerIndex, variant) {
  const seed = customerIndex * HOLDERS_PER_CUSTOMER + variant;
  const givenNames = GIVEN_NAMES[seed % GIVEN_NAMES.length];
  const firstSurname = SURNAMES[(seed * 3 + 1) % SURNAMES.length];
  const secondSurname = SURNAMES[(seed * 5 + 2) % SURNAMES.length];
  const fullName = `${givenNames} ${firstSurname} ${secondSurname}`;
  const birth = new Date(Date.UTC(1950, 0, 1) + seed * 3 * DAY_MS).toISOString();
  const yymmdd = `${birth.slice(2, 4)}${birth.slice(5, 7)}${birth.slice(8, 10)}`;
  const initials = curpInitials({ givenNames, firstSurname, secondSurname });
  const first17 = `${initials}${yymmdd}${seed % 2 === 0 ? "M" : "H"}${pick(["DF", "JC", "NL", "PL", "YN"])}RNL0`;
  const curp = `${first17}${curpCheckDigit(first17)}`;
  if (!nameMatchesCurp(fullName, curp)) {
    throw new Error(`the soak's holder ${fullName} does not match the initials ${initials}`);
  }
  return { fullName, curp, holderKeyMasked: maskCurp(curp) };
}

/** A name typed with the holder's CURP that is not theirs (surnames swapped): the sandbox refuses it. */
export function mismatchedName(holder) {
  const words = holder.fullName.split(" ");
  const swapped = [...words.slice(0, -2), words.at(-1), words.at(-2)].join(" ");
  for (const candidate of [swapped, `Zacarías Quintero ${words.at(-1)}`]) {
    if (!nameMatchesCurp(candidate, holder.curp)) return candidate;
  }
  return "Zacarías Quintero Ybarra";
}

/**
 * The numbers a customer registers at /registro-de-linea: 55 + index + 1 + serial, apart from the
 * lines they top up (…00N) and the numbers they port (3…).
 */
export function registrationNumber(customerIndex, serial) {
  if (serial > 99) throw new Error("a soak customer registers at most 100 numbers");
  return `55${pad(customerIndex, 5)}1${pad(serial, 2)}`;
}

export const spacedNumber = (number) =>
  `${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`;

const { rfcCheckDigit } = await tsImport("../../app/registration/rfc.ts", import.meta.url);

/**
 * /facturacion's form as a company fills it: a persona moral's RFC with its check digit (the
 * invoicing sandbox compares no company's name), régimen 601, a use that régimen takes.
 */
export function invoiceForm(email) {
  const body = `CNO${pad(Math.floor(Math.random() * 26), 2)}${pad(1 + Math.floor(Math.random() * 12), 2)}${pad(1 + Math.floor(Math.random() * 28), 2)}${pick(["A", "B", "C"])}${1 + Math.floor(Math.random() * 9)}`;
  return {
    rfc: body + rfcCheckDigit(body),
    nombre: "Comercializadora del Norte",
    regimen: "601",
    codigo_postal: "64000",
    uso: pick(["G03", "I06", "G01"]),
    correo: email,
  };
}
