/**
 * The one way this site writes an amount of money (decision 0071) and a count (decision 0128).
 * Prices are Mexican pesos with IVA included, written the way a Mexican customer reads them
 * (es-MX: "$" before the amount, a comma between thousands, a point before centavos):
 *
 * - `formatPrice`: what one thing costs, on cards, lines, tables and choices. Whole pesos without
 *   centavos ("$199", "$2,399"); centavos only when there are some ("$1,234.50").
 * - `formatTotal`: an amount to pay or paid (cart, checkout and order totals, vouchers, receipts,
 *   e-mails). Always with centavos and the currency code, so it cannot be misread as dollars on a
 *   receipt: "$1,234.50 MXN".
 * - `formatCount`: minutes, SMS, megabytes: "5,000", "1,234.5".
 *
 * Both amounts join with no-break spaces, so an amount never breaks across two lines. Pages say
 * "IVA incluido" next to prices (commerce:plan.priceNote), not in the amount itself.
 *
 * Written by hand rather than with `Intl.NumberFormat` (decision 0128): the first Intl object a
 * page builds loads ICU's locale data, 40–70 ms of a cheap phone's main thread while the page
 * starts, and es-MX's rules for these are three. The unit tests hold every output to Intl's own.
 */

/** "1234567" → "1,234,567": es-MX groups every three digits from four digits up. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ",");
}

/**
 * "5,000", "1,234.5", "-12": es-MX with up to three decimals, as Intl writes them: the number's
 * shortest decimal form (what `String` gives) rounded half away from zero. A number too small or
 * too large for a plain decimal form ("1e-7", "1e+21") is left to Intl.
 */
export function formatCount(value: number): string {
  const written = String(Math.abs(value));
  if (!/^[\d.]+$/.test(written)) return value.toLocaleString("es-MX");
  let [whole = "0", fraction = ""] = written.split(".");
  if (fraction.length > 3) {
    // Below 9e12 the digits fit a safe integer; above it a double has at most three decimals.
    const kept = Number(whole + fraction.slice(0, 3)) + (fraction[3]! >= "5" ? 1 : 0);
    const digits = String(kept).padStart(4, "0");
    whole = digits.slice(0, -3);
    fraction = digits.slice(-3);
  }
  const decimals = fraction.replace(/0+$/, "");
  return `${value < 0 ? "-" : ""}${groupThousands(whole)}${decimals ? `.${decimals}` : ""}`;
}

/** The currency code written after a total, joined by a no-break space. */
export const CURRENCY_SUFFIX = "\u00a0MXN";

function centavos(amount: number): number {
  return Math.round(amount * 100);
}

function pesos(cents: number, withCentavos: boolean): string {
  const absolute = Math.abs(cents);
  const whole = groupThousands(String(Math.floor(absolute / 100)));
  const fraction = withCentavos ? `.${String(absolute % 100).padStart(2, "0")}` : "";
  return `${cents < 0 ? "-" : ""}$${whole}${fraction}`;
}

/**
 * "1234.50": an amount as machines read it (schema.org's `price` in a page's JSON-LD): a point
 * before two decimals, no grouping, no sign of the currency (said beside it, "MXN").
 */
export function decimalAmount(amount: number): string {
  const cents = centavos(amount);
  const absolute = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/** "$199" for whole pesos, "$1,234.50" otherwise. */
export function formatPrice(amount: number): string {
  const cents = centavos(amount);
  return pesos(cents, cents % 100 !== 0);
}

/** "$1,234.50 MXN": an amount to pay or paid. */
export function formatTotal(amount: number): string {
  return `${pesos(centavos(amount), true)}${CURRENCY_SUFFIX}`;
}
