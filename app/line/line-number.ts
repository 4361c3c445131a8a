/**
 * A line's ten digits as Mexicans write them: "55 1234 5678" for the two-digit area codes of
 * Mexico City, Guadalajara and Monterrey (33, 55, 56, 81), "222 123 4567" for the rest. Anything
 * that is not ten digits is returned as it is.
 */
export function formatLineNumber(number: string): string {
  if (!/^\d{10}$/.test(number)) return number;
  return TWO_DIGIT_AREAS.has(number.slice(0, 2))
    ? `${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`
    : `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`;
}

const TWO_DIGIT_AREAS = new Set(["33", "55", "56", "81"]);
