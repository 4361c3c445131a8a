import { PLAN_CATALOGUE } from "~/catalog/plans.data";

/**
 * The top-up amounts on offer, in whole pesos with IVA, and what each buys. Kept as data: a new
 * amount or a change of benefits is an edit here or in the plan catalogue, and the form, the
 * schema, the receipt and the help centre follow.
 */
export interface TopupAmount {
  amount: number;
  validityDays: number;
  /** Mobile data included, in megabytes (1 GB = 1024 MB). */
  dataMb: number;
  /** Unlimited social networks (WhatsApp, Facebook…) during the validity. */
  unlimitedSocial: boolean;
  /** The plan whose benefits this top-up buys; null for a small bundle of its own. */
  planId: string | null;
}

/** Megabytes in a gigabyte, as the catalogue counts them. */
export const MB_PER_GB = 1024;

/**
 * The plans a top-up can buy. A top-up of a plan's price gives exactly that plan's data and
 * validity, so the same money never buys two different things. Plans left out are sold only as
 * plans: Conecta Local 80 (a different coverage) and Conecta Anual (a year paid at once).
 */
export const TOPUP_PLAN_IDS = [
  "conecta-50",
  "conecta-100",
  "conecta-150",
  "conecta-200",
  "conecta-300",
  "conecta-500",
] as const;

/** Bundles cheaper than any plan, for a day or a few: their own benefits, not a plan's. */
const SMALL_BUNDLES: readonly TopupAmount[] = [
  { amount: 20, validityDays: 1, dataMb: 200, unlimitedSocial: false, planId: null },
  { amount: 30, validityDays: 3, dataMb: 400, unlimitedSocial: false, planId: null },
];

function planTopup(planId: string): TopupAmount {
  const plan = PLAN_CATALOGUE.find((candidate) => candidate.id === planId);
  if (!plan) throw new Error(`Top-up plan ${planId} is not in the plan catalogue`);
  return {
    amount: plan.price,
    validityDays: plan.validityDays,
    dataMb: plan.dataGb * MB_PER_GB,
    unlimitedSocial: plan.unlimitedSocial,
    planId: plan.id,
  };
}

export const TOPUP_AMOUNTS: readonly TopupAmount[] = [
  ...SMALL_BUNDLES,
  ...TOPUP_PLAN_IDS.map(planTopup),
].sort((a, b) => a.amount - b.amount);

export const OFFERED_AMOUNTS = TOPUP_AMOUNTS.map((offer) => offer.amount);

export function findTopupAmount(amount: number): TopupAmount | undefined {
  return TOPUP_AMOUNTS.find((offer) => offer.amount === amount);
}

/** "200 MB" below one gigabyte, "1 GB", "1.5 GB" above. */
export function formatData(megabytes: number): { value: number; unit: "MB" | "GB" } {
  if (megabytes < MB_PER_GB) return { value: megabytes, unit: "MB" };
  return { value: Math.round((megabytes / MB_PER_GB) * 10) / 10, unit: "GB" };
}

/** One line of what an amount buys, as its card and its receipt both list it (topup:form.*). */
export type TopupBenefit =
  | { key: "validity"; count: number }
  | { key: "data"; value: number; unit: "MB" | "GB" }
  | { key: "unlimitedSocial" };

/** What an amount buys, in order: the card that sells it and the receipt read the same list. */
export function topupBenefits(offer: TopupAmount): TopupBenefit[] {
  const data = formatData(offer.dataMb);
  return [
    { key: "validity", count: offer.validityDays },
    { key: "data", value: data.value, unit: data.unit },
    ...(offer.unlimitedSocial ? [{ key: "unlimitedSocial" as const }] : []),
  ];
}
