import type { Plan } from "./plan";

/** Cheapest first; plans at the same price keep their catalogue order. */
export function sortByPrice<T extends Pick<Plan, "price">>(plans: readonly T[]): T[] {
  return [...plans].sort((a, b) => a.price - b.price);
}

export interface HomeOffer<T> {
  /** The main offer: the popular plan. */
  popular: T;
  /** Three plans in ascending price, the popular one among them. */
  featured: T[];
}

/**
 * The home page's plans from the active catalogue: the chosen ids that are still sold, topped up
 * with the cheapest other plans to three, the popular one first in line for the hero (or the
 * middle featured plan if it was retired). Null only for an empty catalogue.
 */
export function homeOffer<T extends Pick<Plan, "id" | "price">>(
  plans: readonly T[],
  choice: { planIds: readonly string[]; popularId: string },
  count = 3,
): HomeOffer<T> | null {
  if (plans.length === 0) return null;
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  const chosen = choice.planIds.flatMap((id) => byId.get(id) ?? []);
  const others = sortByPrice(plans.filter((plan) => !chosen.includes(plan)));
  const featured = sortByPrice([
    ...chosen,
    ...others.slice(0, Math.max(0, count - chosen.length)),
  ]).slice(0, count);
  const popular =
    featured.find((plan) => plan.id === choice.popularId) ??
    featured[Math.floor(featured.length / 2)];
  return { popular, featured };
}
