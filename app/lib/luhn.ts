/** Luhn (mod 10) check digit, used by card numbers and SIM ICCIDs alike. */
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

/** The digit that, appended to `digits`, makes the whole pass the Luhn check. */
export function luhnCheckDigit(digits: string): number {
  for (let candidate = 0; candidate < 10; candidate++) {
    if (passesLuhn(`${digits}${candidate}`)) return candidate;
  }
  throw new Error("A Luhn check digit needs digits");
}
