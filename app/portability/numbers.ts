/** Customers type numbers with spaces, dashes, dots or brackets; we keep the digits. */
export function normalizeDigits(value: string): string {
  return value.replace(/[\s().-]/g, "");
}

/** Luhn (mod 10) check, used by ICCIDs and card numbers alike. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A SIM's ICCID: 19 or 20 digits starting with 89 (telecommunications), Luhn check digit last. */
export function isValidIccid(value: string): boolean {
  return /^89\d{17,18}$/.test(value) && passesLuhn(value);
}

/** "5512345678" → "•••••• 5678": enough for the customer to recognise the line. */
export function maskPhoneNumber(phoneNumber: string): string {
  return `•••••• ${phoneNumber.slice(-4)}`;
}
