import { describe, expect, it } from "vitest";
import { homeOffer, sortByPrice } from "./featured";
import { HOME_FEATURED, PLAN_CATALOGUE } from "./plans.data";

const plan = (id: string, price: number) => ({ id, price });

describe("sortByPrice", () => {
  it("puts the cheapest first and keeps the order of equal prices", () => {
    const sorted = sortByPrice([plan("b", 200), plan("a", 50), plan("c", 200), plan("d", 80)]);
    expect(sorted.map((p) => p.id)).toEqual(["a", "d", "b", "c"]);
  });
});

describe("homeOffer", () => {
  it("features the chosen catalogue plans, one of them popular", () => {
    const offer = homeOffer(PLAN_CATALOGUE, HOME_FEATURED)!;
    expect(offer.featured.map((p) => p.id)).toEqual([...HOME_FEATURED.planIds]);
    expect(offer.popular.id).toBe(HOME_FEATURED.popularId);
    expect(offer.featured).toContain(offer.popular);
  });

  it("only names plans that exist in the catalogue", () => {
    const ids = new Set(PLAN_CATALOGUE.map((p) => p.id));
    for (const id of HOME_FEATURED.planIds) expect(ids.has(id), id).toBe(true);
    expect(HOME_FEATURED.planIds).toContain(HOME_FEATURED.popularId);
  });

  it("fills in with the cheapest other plans when a chosen one is retired", () => {
    const plans = [plan("x", 300), plan("a", 50), plan("b", 100), plan("c", 150)];
    const offer = homeOffer(plans, { planIds: ["c", "gone", "x"], popularId: "gone" })!;
    expect(offer.featured.map((p) => p.id)).toEqual(["a", "c", "x"]);
    expect(offer.popular.id).toBe("c");
  });

  it("shows what there is in a small catalogue, and nothing in an empty one", () => {
    expect(homeOffer([plan("a", 50)], HOME_FEATURED)?.featured).toHaveLength(1);
    expect(homeOffer([], HOME_FEATURED)).toBeNull();
  });
});
