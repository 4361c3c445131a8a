/**
 * The one way this site writes an amount of money (decision 0071). Prices are Mexican pesos with
 * IVA included, written the way a Mexican customer reads them (es-MX: "$" before the amount, a
 * comma between thousands, a point before centavos):
 *
 * - `formatPrice`: what one thing costs, on cards, lines, tables and choices. Whole pesos without
 *   centavos ("$199", "$2,399"); centavos only when there are some ("$1,234.50").
 * - `formatTotal`: an amount to pay or paid (cart, checkout and order totals, vouchers, receipts,
 *   e-mails). Always with centavos and the currency code, so it cannot be misread as dollars on a
 *   receipt: "$1,234.50 MXN".
 *
 * Both join with no-break spaces, so an amount never breaks across two lines. Pages say
 * "IVA incluido" next to prices (commerce:plan.priceNote), not in the amount itself.
 */

const wholePesos = new Intl.NumberFormat("es-MX", {
  style: "currency",
  currency: "MXN",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const withCentavos = new Intl.NumberFormat("es-MX", {
  style: "currency",
  currency: "MXN",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** The currency code written after a total, joined by a no-break space. */
export const CURRENCY_SUFFIX = "\u00a0MXN";

function centavos(amount: number): number {
  return Math.round(amount * 100);
}

/** "$199" for whole pesos, "$1,234.50" otherwise. */
export function formatPrice(amount: number): string {
  return centavos(amount) % 100 === 0
    ? wholePesos.format(centavos(amount) / 100)
    : withCentavos.format(centavos(amount) / 100);
}

/** "$1,234.50 MXN": an amount to pay or paid. */
export function formatTotal(amount: number): string {
  return `${withCentavos.format(centavos(amount) / 100)}${CURRENCY_SUFFIX}`;
}
