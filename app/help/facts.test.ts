import { describe, expect, it } from "vitest";
import type { Plan } from "~/catalog/plan";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { TOPUP_AMOUNTS } from "~/topup/amounts";
import {
  countText,
  costsText,
  hotspotText,
  listText,
  mexicoOnlyPlans,
  priceText,
  simAvailabilityText,
  topupText,
} from "./facts";

const base = PLAN_CATALOGUE[0];
const plan = (name: string, changes: Partial<Plan> = {}): Plan => ({
  ...base,
  id: name.toLowerCase().replace(/\s+/g, "-"),
  name,
  ...changes,
});

describe("phrases built from the data", () => {
  it("write numbers, counts, lists and prices as a Mexican customer reads them", () => {
    expect(countText(5000, "minuto", "minutos")).toBe("5,000 minutos");
    expect(countText(1, "hora", "horas")).toBe("1 hora");
    expect(countText(24, "hora", "horas")).toBe("24 horas");
    expect(listText(["A"])).toBe("A");
    expect(listText(["A", "B", "C"])).toBe("A, B y C");
    expect(priceText(0)).toBe("sin costo");
    expect(priceText(2399)).toBe("$2,399");
    expect(costsText(0)).toBe("no tiene costo");
    expect(costsText(50)).toBe("cuesta $50");
  });

  it("name the plans sold with one kind of SIM only, or say that all have both", () => {
    const both = plan("Uno", { simTypes: ["physical", "esim"] });
    expect(simAvailabilityText([both])).toMatch(
      /^Todos los planes se venden con SIM física o con eSIM/,
    );
    expect(
      simAvailabilityText([
        both,
        plan("Dos", { simTypes: ["esim"] }),
        plan("Tres", { simTypes: ["esim"] }),
        plan("Cuatro", { simTypes: ["physical"] }),
      ]),
    ).toContain("Dos y Tres se venden solo con eSIM y Cuatro se vende solo con SIM física.");
    expect(simAvailabilityText()).toContain("Conecta 500 se vende solo con eSIM");
    expect(simAvailabilityText()).toContain("Conecta Local 80 se vende solo con SIM física");
  });

  it("name the plans that share data and those that do not", () => {
    expect(hotspotText([plan("Uno", { hotspot: true })])).toMatch(/^Sí\. Todos los planes/);
    expect(hotspotText([plan("Uno", { hotspot: true }), plan("Dos", { hotspot: false })])).toMatch(
      /^Sí, con Uno: te permite compartir .* Dos no incluye compartir datos\.$/,
    );
    for (const { name, hotspot } of PLAN_CATALOGUE) {
      const sentence = hotspotText()
        .split(". ")
        .find((part) => part.includes(hotspot ? "te permiten" : "no incluyen"));
      expect(sentence, name).toMatch(new RegExp(`${name}(?!\\d)`));
    }
  });

  it("find the plans whose calls do not reach the United States and Canada", () => {
    expect(mexicoOnlyPlans().map((candidate) => candidate.id)).toEqual(
      PLAN_CATALOGUE.filter((candidate) => !candidate.coverage.usa).map(
        (candidate) => candidate.id,
      ),
    );
  });

  it("describe each top-up by its own benefits, or by the plan it buys", () => {
    const [smallest] = TOPUP_AMOUNTS;
    expect(topupText(smallest)).toBe("$20: 200 MB por 1 día.");
    const fifty = TOPUP_AMOUNTS.find((offer) => offer.amount === 50);
    expect(fifty && topupText(fifty)).toBe(
      "$50: lo mismo que el plan Conecta 50 (1 GB por 7 días con WhatsApp ilimitado).",
    );
  });
});
