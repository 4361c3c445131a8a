/**
 * The top-up amounts on offer, in whole pesos with IVA, and what each buys. Kept as data: a new
 * amount or a change of benefits is an edit here, and the form, the schema and the receipt follow.
 */
export interface TopupAmount {
  amount: number;
  validityDays: number;
  /** Mobile data included, in megabytes (1 GB = 1024 MB). */
  dataMb: number;
  /** Unlimited social networks (WhatsApp, Facebook…) during the validity. */
  unlimitedSocial: boolean;
}

export const TOPUP_AMOUNTS: readonly TopupAmount[] = [
  { amount: 20, validityDays: 1, dataMb: 200, unlimitedSocial: false },
  { amount: 30, validityDays: 3, dataMb: 400, unlimitedSocial: false },
  { amount: 50, validityDays: 7, dataMb: 1024, unlimitedSocial: true },
  { amount: 100, validityDays: 15, dataMb: 3072, unlimitedSocial: true },
  { amount: 150, validityDays: 30, dataMb: 5120, unlimitedSocial: true },
  { amount: 200, validityDays: 30, dataMb: 8192, unlimitedSocial: true },
  { amount: 300, validityDays: 30, dataMb: 15360, unlimitedSocial: true },
  { amount: 500, validityDays: 30, dataMb: 30720, unlimitedSocial: true },
];

export const OFFERED_AMOUNTS = TOPUP_AMOUNTS.map((offer) => offer.amount);

export function findTopupAmount(amount: number): TopupAmount | undefined {
  return TOPUP_AMOUNTS.find((offer) => offer.amount === amount);
}

/** "200 MB" below one gigabyte, "1 GB", "1.5 GB" above. */
export function formatData(megabytes: number): { value: number; unit: "MB" | "GB" } {
  if (megabytes < 1024) return { value: megabytes, unit: "MB" };
  return { value: Math.round((megabytes / 1024) * 10) / 10, unit: "GB" };
}
