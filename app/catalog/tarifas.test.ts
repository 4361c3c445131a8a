import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatData, TOPUP_AMOUNTS } from "~/topup/amounts";
import { formatPrice } from "./money";
import { PLAN_CATALOGUE } from "./plans.data";
import { NUMBER_KEPT_MONTHS, SHIPPING_PRICE, SIM_PRICE, SIM_REPLACEMENT_PRICE } from "./terms";

/*
 * content/legal/tarifas.md is the registered tariff document: a customer may hold the store to it.
 * It is written by hand (it is a legal text), so this test holds it to the data: every plan, top-up
 * and fee the store sells, at the price and with the benefits the store gives, and nothing else.
 */
const tarifas = readFileSync(path.resolve("content/legal/tarifas.md"), "utf8");
const items = tarifas
  .split("\n")
  .filter((line) => line.startsWith("- "))
  .map((line) => line.slice(2));

/** The list item that starts with `label` followed by a colon: exactly one. */
function item(label: string): string {
  const found = items.filter((text) => text.startsWith(`${label}:`));
  expect(found, label).toHaveLength(1);
  return found[0];
}

const price = (amount: number) => (amount === 0 ? "sin costo" : formatPrice(amount));
const names = (list: string[]) => new Intl.ListFormat("es-MX").format(list);
const count = (value: number) => new Intl.NumberFormat("es-MX").format(value);

describe("the tariff document", () => {
  for (const plan of PLAN_CATALOGUE) {
    it(`states ${plan.name} as the catalogue sells it`, () => {
      const text = item(plan.name);
      expect(text).toContain(`: ${formatPrice(plan.price)} por ${plan.validityDays} días.`);
      expect(text).toContain(`Incluye ${plan.dataGb} GB de datos de alta velocidad`);
      expect(text).toContain(`Registro ${plan.tariffRegistration}.`);
      expect(text).toContain(
        plan.hotspot ? "Permite compartir datos." : "No incluye compartir datos.",
      );
      if (plan.minutes === null && plan.sms === null) {
        const countries = plan.coverage.usa && plan.coverage.canada;
        expect(text).toContain(
          countries
            ? "llamadas y SMS ilimitados a México, Estados Unidos y Canadá"
            : "llamadas y SMS ilimitados",
        );
      } else {
        expect(text).toContain(`${count(plan.minutes ?? 0)} minutos y ${count(plan.sms ?? 0)} SMS`);
      }
      if (!plan.coverage.usa || !plan.coverage.canada) expect(text).toContain("dentro de México");
      expect(text).toContain(
        plan.unlimitedSocial && plan.socialNetworks.length
          ? `${names(plan.socialNetworks)} ${plan.socialNetworks.length === 1 ? "ilimitado" : "ilimitados"}`
          : "Sin redes sociales ilimitadas",
      );
      const onlyEsim = plan.simTypes.length === 1 && plan.simTypes[0] === "esim";
      const onlyPhysical = plan.simTypes.length === 1 && plan.simTypes[0] === "physical";
      expect(text.includes("Sólo con perfil eSIM"), plan.name).toBe(onlyEsim);
      expect(text.includes("Sólo con tarjeta SIM física"), plan.name).toBe(onlyPhysical);
    });
  }

  it("lists no plan the catalogue does not sell", () => {
    const planItems = items.filter((text) => /^Conecta [^:]+:/.test(text));
    expect(planItems.map((text) => text.slice(0, text.indexOf(":")))).toEqual(
      PLAN_CATALOGUE.map((plan) => plan.name),
    );
  });

  it("lists exactly the top-up amounts on offer, each with what it buys", () => {
    const topupItems = items.filter((text) => text.startsWith("$"));
    expect(topupItems.map((text) => text.slice(0, text.indexOf(":")))).toEqual(
      TOPUP_AMOUNTS.map((offer) => formatPrice(offer.amount)),
    );
    for (const offer of TOPUP_AMOUNTS) {
      const text = item(formatPrice(offer.amount));
      const plan = PLAN_CATALOGUE.find((candidate) => candidate.id === offer.planId);
      if (plan) {
        expect(text).toBe(`${formatPrice(offer.amount)}: los beneficios del plan ${plan.name}.`);
      } else {
        const { value, unit } = formatData(offer.dataMb);
        const data = `${value} ${unit}`;
        const days = `${offer.validityDays} ${offer.validityDays === 1 ? "día" : "días"}`;
        expect(text).toContain(`${data} de datos de alta velocidad por ${days}.`);
      }
    }
  });

  it("charges for SIMs, shipping and replacements what the store charges", () => {
    expect(item("Tarjeta SIM física comprada con un plan")).toBe(
      `Tarjeta SIM física comprada con un plan: ${price(SIM_PRICE)}.`,
    );
    expect(item("Perfil eSIM comprado con un plan")).toBe(
      `Perfil eSIM comprado con un plan: ${price(SIM_PRICE)}.`,
    );
    expect(item("Envío de la tarjeta SIM a cualquier domicilio de México")).toBe(
      `Envío de la tarjeta SIM a cualquier domicilio de México: ${price(SHIPPING_PRICE)}.`,
    );
    expect(item("Reposición de tarjeta SIM por robo, extravío o daño")).toBe(
      `Reposición de tarjeta SIM por robo, extravío o daño: ${price(SIM_REPLACEMENT_PRICE.physical)}.`,
    );
    expect(item("Reposición de perfil eSIM (código QR nuevo)")).toBe(
      `Reposición de perfil eSIM (código QR nuevo): ${price(SIM_REPLACEMENT_PRICE.esim)}.`,
    );
  });

  it("states no price the data does not hold", () => {
    const prices = new Set([
      ...PLAN_CATALOGUE.map((plan) => plan.price),
      ...TOPUP_AMOUNTS.map((offer) => offer.amount),
      SIM_PRICE,
      SHIPPING_PRICE,
      SIM_REPLACEMENT_PRICE.physical,
      SIM_REPLACEMENT_PRICE.esim,
    ]);
    const stated = [...tarifas.matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)/g)].map((match) =>
      Number(match[1].replace(/,/g, "")),
    );
    expect(stated.length).toBeGreaterThan(0);
    for (const amount of stated) expect(prices.has(amount), `$${amount}`).toBe(true);
  });

  it("keeps the number and the unused data as long as the terms say", () => {
    expect(tarifas).toContain(
      `dentro de los ${NUMBER_KEPT_MONTHS} meses posteriores al vencimiento`,
    );
  });
});
