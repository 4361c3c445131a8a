import { passesLuhn } from "~/lib/luhn";
/** Customers type numbers with spaces, dashes, dots or brackets; we keep the digits. */
export function normalizeDigits(value: string): string {
  return value.replace(/[\s().-]/g, "");
}

/** A SIM's ICCID: 19 or 20 digits starting with 89 (telecommunications), Luhn check digit last. */
export function isValidIccid(value: string): boolean {
  return /^89\d{17,18}$/.test(value) && passesLuhn(value);
}

/** "5512345678" → "•••••• 5678": enough for the customer to recognise the line. */
export function maskPhoneNumber(phoneNumber: string): string {
  return `•••••• ${phoneNumber.slice(-4)}`;
}
