/**
 * CLABE, the 18-digit account number of a SPEI transfer: bank (3), plaza (3), account (11) and a
 * control digit. The control digit weighs the first 17 digits 3, 7, 1, 3, 7, 1…, keeps the last
 * digit of each product, and is what brings their sum to a multiple of 10 (Banxico's rule).
 */
const WEIGHTS = [3, 7, 1];

export function clabeControlDigit(first17: string): number {
  if (!/^\d{17}$/.test(first17)) throw new Error("A CLABE's first part has 17 digits");
  let sum = 0;
  for (let index = 0; index < 17; index++) {
    sum += (Number(first17[index]) * WEIGHTS[index % 3]) % 10;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidClabe(value: string): boolean {
  return /^\d{18}$/.test(value) && clabeControlDigit(value.slice(0, 17)) === Number(value[17]);
}

/** "646 180 12345678901 2": bank, plaza, account and control, as bank apps ask for it. */
export function formatClabe(clabe: string): string {
  return `${clabe.slice(0, 3)} ${clabe.slice(3, 6)} ${clabe.slice(6, 17)} ${clabe.slice(17)}`;
}
