import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SIM_TYPE_OPTIONS } from "./plan";
import { PLAN_CATALOGUE } from "./plans.data";
import {
  ESIM_DELIVERY,
  FAIR_USE,
  isSimType,
  LINE_ACTIVATION,
  NIP_VALIDITY_DAYS,
  NUMBER_KEPT_MONTHS,
  NUMBER_RELEASE_NOTICE_DAYS,
  PHYSICAL_SIM_DELIVERY,
  PORTABILITY_MAX_HOURS,
  SHIPPING_PRICE,
  SIM_PRICE,
  SIM_REPLACEMENT_PRICE,
  SIM_TYPES,
} from "./terms";

const legal = (slug: string) =>
  readFileSync(path.resolve("content/legal", `${slug}.md`), "utf8").replace(/\s+/g, " ");
const thousands = (value: number) => new Intl.NumberFormat("es-MX").format(value);

describe("the store's terms", () => {
  it("give SIMs and shipping with the plan at no charge (decision 0066)", () => {
    expect(SIM_PRICE).toBe(0);
    expect(SHIPPING_PRICE).toBe(0);
    for (const amount of [SIM_REPLACEMENT_PRICE.physical, SIM_REPLACEMENT_PRICE.esim]) {
      expect(Number.isInteger(amount) && amount >= 0).toBe(true);
    }
  });

  it("know the SIM kinds the catalogue sells, and every kind is sold with some plan", () => {
    expect([...SIM_TYPES]).toEqual([...SIM_TYPE_OPTIONS]);
    for (const plan of PLAN_CATALOGUE) {
      for (const type of plan.simTypes) expect(isSimType(type), plan.id).toBe(true);
    }
    for (const type of SIM_TYPES) {
      expect(
        PLAN_CATALOGUE.some((plan) => plan.simTypes.includes(type)),
        type,
      ).toBe(true);
    }
    expect(isSimType("esim")).toBe(true);
    expect(isSimType("nano")).toBe(false);
    expect(isSimType(undefined)).toBe(false);
  });

  it("promise times that hold together", () => {
    const { cities, elsewhere, stalledDays } = PHYSICAL_SIM_DELIVERY;
    expect(cities.minDays).toBeGreaterThan(0);
    expect(cities.minDays).toBeLessThanOrEqual(cities.maxDays);
    expect(elsewhere.maxDays).toBeGreaterThanOrEqual(cities.maxDays);
    expect(stalledDays).toBeGreaterThan(0);
    expect(ESIM_DELIVERY.emailWithinMinutes).toBeGreaterThan(0);
    expect(LINE_ACTIVATION.usualMinutes).toBeLessThan(LINE_ACTIVATION.maxHours * 60);
    expect(NUMBER_RELEASE_NOTICE_DAYS).toBeLessThan(NUMBER_KEPT_MONTHS * 30);
  });

  // The legal documents are written by hand; where they state one of these terms, they must
  // state the same value.
  it("agree with the portability policy", () => {
    const text = legal("portabilidad");
    expect(text).toContain(`válido durante ${NIP_VALIDITY_DAYS} días naturales`);
    expect(text).toContain(`plazo máximo de ${PORTABILITY_MAX_HOURS} horas`);
  });

  it("agree with the contract on how long an expired line keeps its number", () => {
    const text = legal("contrato-de-adhesion");
    expect(text).toContain(`durante los ${NUMBER_KEPT_MONTHS} meses siguientes`);
    expect(text).toContain(`con ${NUMBER_RELEASE_NOTICE_DAYS} días naturales de anticipación`);
  });

  it("agree with the fair-use policy", () => {
    const text = legal("politica-de-uso-justo");
    expect(text).toContain(`en un mismo periodo de ${FAIR_USE.periodDays} días`);
    expect(text).toContain(`Voz: ${thousands(FAIR_USE.minutes)} minutos.`);
    expect(text).toContain(`SMS: ${thousands(FAIR_USE.sms)} mensajes.`);
    expect(text).toContain(`Redes sociales ilimitadas: ${FAIR_USE.socialGb} GB`);
    expect(text).toContain(`${FAIR_USE.socialThrottleKbps} kbps`);
  });
});
