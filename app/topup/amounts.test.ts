import { describe, expect, it } from "vitest";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import {
  findTopupAmount,
  formatData,
  topupBenefits,
  OFFERED_AMOUNTS,
  TOPUP_AMOUNTS,
  TOPUP_PLAN_IDS,
} from "./amounts";

describe("top-up amounts", () => {
  it("give, at a plan's price, exactly that plan's data and validity", () => {
    const atPlanPrices = TOPUP_AMOUNTS.filter((offer) =>
      PLAN_CATALOGUE.some((plan) => plan.price === offer.amount),
    );
    expect(atPlanPrices.length).toBeGreaterThan(0);
    for (const offer of atPlanPrices) {
      const plans = PLAN_CATALOGUE.filter((plan) => plan.price === offer.amount);
      // Two plans at one price would leave a top-up of that amount ambiguous.
      expect(plans, `plans at $${offer.amount}`).toHaveLength(1);
      const [plan] = plans;
      expect(offer, `$${offer.amount}`).toEqual({
        amount: plan.price,
        validityDays: plan.validityDays,
        dataMb: plan.dataGb * 1024,
        unlimitedSocial: plan.unlimitedSocial,
        planId: plan.id,
      });
    }
  });

  it("buy the plans named for top-ups, and the small bundles below any plan's price", () => {
    expect(
      TOPUP_AMOUNTS.filter((offer) => offer.planId !== null).map((offer) => offer.planId),
    ).toEqual([...TOPUP_PLAN_IDS]);
    const cheapestPlan = Math.min(...PLAN_CATALOGUE.map((plan) => plan.price));
    for (const offer of TOPUP_AMOUNTS.filter((candidate) => candidate.planId === null)) {
      expect(offer.amount).toBeLessThan(cheapestPlan);
    }
  });

  it("are offered once each, cheapest first", () => {
    expect(OFFERED_AMOUNTS).toEqual([20, 30, 50, 100, 150, 200, 300, 500]);
    expect(new Set(OFFERED_AMOUNTS).size).toBe(OFFERED_AMOUNTS.length);
    expect(findTopupAmount(200)?.planId).toBe("conecta-200");
    expect(findTopupAmount(200)?.dataMb).toBe(10 * 1024);
    expect(findTopupAmount(80)).toBeUndefined();
  });

  it("show data in MB below a gigabyte and in GB from one", () => {
    expect(formatData(200)).toEqual({ value: 200, unit: "MB" });
    expect(formatData(1024)).toEqual({ value: 1, unit: "GB" });
    expect(formatData(1536)).toEqual({ value: 1.5, unit: "GB" });
    expect(formatData(50 * 1024)).toEqual({ value: 50, unit: "GB" });
  });
});

describe("topupBenefits", () => {
  it("lists for every amount what it buys, social networks included when it has them", () => {
    for (const offer of TOPUP_AMOUNTS) {
      const keys = topupBenefits(offer).map((benefit) => benefit.key);
      expect(keys.slice(0, 2)).toEqual(["validity", "data"]);
      expect(keys.includes("unlimitedSocial")).toBe(offer.unlimitedSocial);
    }
    expect(topupBenefits(findTopupAmount(50)!)).toEqual([
      { key: "validity", count: findTopupAmount(50)!.validityDays },
      { key: "data", ...formatData(findTopupAmount(50)!.dataMb) },
      { key: "unlimitedSocial" },
    ]);
  });
});
