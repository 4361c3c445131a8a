import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { findOrder, placeOrder } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { createCatalogue, type Catalogue } from "./catalog.server";
import { filterPlans, parsePlanFilters } from "./plan";
import { PLAN_CATALOGUE } from "./plans.data";

let db: Db;
let catalogue: Catalogue;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
});
afterEach(async () => {
  await db.destroy();
});

const input = (key: string) => ({
  idempotencyKey: key,
  customer: {
    full_name: "Ana López",
    email: "ana@example.com",
    phone_number: "5512345678",
    sim_type: "physical" as const,
    delivery: {
      street: "Calle 1",
      exterior_number: "1",
      interior_number: undefined,
      neighborhood: "Centro",
      postal_code: "06000",
      municipality: "Cuauhtémoc",
      state: "CMX" as const,
    },
  },
  lines: priceCart([{ id: "conecta-150", quantity: 1 }], catalogue.find).lines,
});

describe("the catalogue", () => {
  it("holds six to eight plans with every published field", () => {
    const plans = catalogue.plans();
    expect(plans.length).toBeGreaterThanOrEqual(6);
    expect(plans.length).toBeLessThanOrEqual(8);
    expect(plans).toEqual(PLAN_CATALOGUE);
    for (const plan of plans) {
      expect(Number.isInteger(plan.price) && plan.price > 0).toBe(true);
      expect(plan.tariffRegistration).toMatch(/^CRT-\d+$/);
      expect(plan.simTypes.length).toBeGreaterThan(0);
      expect(plan.fairUseNote.length).toBeGreaterThan(20);
    }
  });

  it("retires a plan removed from the file but keeps it for past orders", async () => {
    const { order } = await placeOrder(db, input("before-retirement"));
    await catalogue.seed(PLAN_CATALOGUE.filter((plan) => plan.id !== "conecta-150"));
    expect(catalogue.find("conecta-150")).toBeUndefined();
    expect((await findOrder(db, order.ref))?.lines[0].planName).toBe("Conecta 150");
    await catalogue.seed(PLAN_CATALOGUE);
    expect(catalogue.find("conecta-150")?.price).toBe(150);
  });

  it("serves from memory until reloaded", async () => {
    await db.updateTable("plans").set({ price: 1 }).where("id", "=", "conecta-50").execute();
    expect(catalogue.find("conecta-50")?.price).toBe(50);
    await catalogue.reload();
    expect(catalogue.find("conecta-50")?.price).toBe(1);
  });
});

describe("the plan filters (a plain GET form)", () => {
  const params = (query: string) => parsePlanFilters(new URLSearchParams(query));

  it("read validity, minimum data and SIM type", () => {
    expect(params("validity_days=30&min_data_gb=10&sim_type=esim")).toEqual({
      validityDays: 30,
      minDataGb: 10,
      simType: "esim",
    });
  });

  it("ignore values the form does not offer instead of failing", () => {
    expect(params("validity_days=31&min_data_gb=abc&sim_type=tarjeta")).toEqual({
      validityDays: null,
      minDataGb: null,
      simType: null,
    });
    expect(params("")).toEqual({ validityDays: null, minDataGb: null, simType: null });
  });

  it("keep only the plans that meet every filter", () => {
    const ids = (query: string) =>
      filterPlans(PLAN_CATALOGUE, params(query)).map((plan) => plan.id);
    expect(ids("")).toHaveLength(PLAN_CATALOGUE.length);
    expect(ids("validity_days=30&min_data_gb=10")).toEqual([
      "conecta-200",
      "conecta-300",
      "conecta-500",
    ]);
    expect(ids("sim_type=esim")).not.toContain("conecta-local-80");
    expect(ids("sim_type=physical")).not.toContain("conecta-500");
    expect(ids("validity_days=7&min_data_gb=50")).toEqual([]);
  });
});
