const pesos = new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" });

/** Whole pesos, IVA included, as a Mexican customer reads them: "$1,299.00". */
export function formatMoney(amount: number): string {
  return pesos.format(amount);
}
