/** A prepaid plan as the storefront shows and sells it. Prices: whole pesos, IVA included. */
export interface Plan {
  id: string;
  name: string;
  price: number;
  validityDays: number;
  dataGb: number;
  /** null: unlimited. */
  minutes: number | null;
  /** null: unlimited. */
  sms: number | null;
  coverage: { mexico: boolean; usa: boolean; canada: boolean };
  unlimitedSocial: boolean;
  /** Brand names of the social networks that do not consume the plan's data. */
  socialNetworks: string[];
  hotspot: boolean;
  simTypes: Array<"physical" | "esim">;
  fairUseNote: string;
  /** Registration number of the tariff with the regulator (CRT, formerly IFT). */
  tariffRegistration: string;
}

export const VALIDITY_OPTIONS = [7, 15, 30, 365] as const;
export const MIN_DATA_OPTIONS = [3, 5, 10, 20, 50] as const;
export const SIM_TYPE_OPTIONS = ["physical", "esim"] as const;

export interface PlanFilters {
  validityDays: number | null;
  minDataGb: number | null;
  simType: (typeof SIM_TYPE_OPTIONS)[number] | null;
}

/**
 * Reads the /plans filter form (a plain GET form). Anything unrecognised means "no filter", so a
 * hand-edited address still shows plans instead of an error.
 */
export function parsePlanFilters(params: URLSearchParams): PlanFilters {
  const validity = Number(params.get("validity_days"));
  const minData = Number(params.get("min_data_gb"));
  const sim = params.get("sim_type");
  return {
    validityDays: (VALIDITY_OPTIONS as readonly number[]).includes(validity) ? validity : null,
    minDataGb: (MIN_DATA_OPTIONS as readonly number[]).includes(minData) ? minData : null,
    simType: (SIM_TYPE_OPTIONS as readonly string[]).includes(sim ?? "")
      ? (sim as PlanFilters["simType"])
      : null,
  };
}

export function filterPlans(plans: readonly Plan[], filters: PlanFilters): Plan[] {
  return plans.filter(
    (plan) =>
      (filters.validityDays === null || plan.validityDays === filters.validityDays) &&
      (filters.minDataGb === null || plan.dataGb >= filters.minDataGb) &&
      (filters.simType === null || plan.simTypes.includes(filters.simType)),
  );
}
