import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getFixedT } from "~/i18n/i18n.server";
import {
  formatRegistrationFolio,
  KEPT_REGISTRATION_DATA,
  lineLimitFor,
  onlineAttemptsLeft,
  parseRegistrationFolio,
  REGISTRATION_RULES,
  suspendsUnregisteredLines,
} from "./registration-rules";

describe("the registration rule", () => {
  it("has the dates of the lineamientos: published, required, the deadline, the suspension", () => {
    expect(REGISTRATION_RULES).toMatchObject({
      publishedOn: "2025-12-09",
      requiredFrom: "2026-01-09",
      deadline: "2026-06-30",
      suspensionFrom: "2026-07-01",
    });
    expect(suspendsUnregisteredLines("2026-06-30")).toBe(false);
    expect(suspendsUnregisteredLines("2026-07-01")).toBe(true);
  });

  it("limits a person to 10 lines, and a persona moral not at all", () => {
    expect(lineLimitFor("fisica")).toBe(10);
    expect(lineLimitFor("extranjera")).toBe(10);
    expect(lineLimitFor("moral")).toBeNull();
  });

  it("leaves a suspended line the emergency and citizen-service numbers", () => {
    expect(REGISTRATION_RULES.reachableWhileSuspended).toEqual(["911", "074", "079", "088", "089"]);
  });

  it("ends the online path after three failed validations of a number within 24 hours", () => {
    const now = new Date("2026-03-02T12:00:00Z");
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
    expect(onlineAttemptsLeft([], now)).toBe(3);
    expect(onlineAttemptsLeft([hoursAgo(1), hoursAgo(2)], now)).toBe(1);
    expect(onlineAttemptsLeft([hoursAgo(1), hoursAgo(2), hoursAgo(23)], now)).toBe(0);
    expect(onlineAttemptsLeft([hoursAgo(1), hoursAgo(2), hoursAgo(24)], now)).toBe(1);
    expect(onlineAttemptsLeft([hoursAgo(1), hoursAgo(2), hoursAgo(3), hoursAgo(4)], now)).toBe(0);
  });

  it("keeps only what the rule allows, each said in Spanish", () => {
    const t = getFixedT("registration");
    expect(KEPT_REGISTRATION_DATA).toHaveLength(6);
    for (const name of KEPT_REGISTRATION_DATA) expect(t(`kept.${name}`)).not.toBe(`kept.${name}`);
  });
});

describe("the registration folio", () => {
  it("reads VIN-YYYY-NNNNNN as typed", () => {
    expect(formatRegistrationFolio(2026, 123)).toBe("VIN-2026-000123");
    expect(parseRegistrationFolio(" vin-2026-000123 ")).toEqual({
      folio: "VIN-2026-000123",
      year: 2026,
      sequence: 123,
    });
    for (const wrong of ["VIN-2026-123", "POR-2026-000123", "VIN-2026-000000", "VIN2026000123"]) {
      expect(parseRegistrationFolio(wrong), wrong).toBeNull();
    }
    expect(() => formatRegistrationFolio(2026, 1_000_000)).toThrow(RangeError);
  });

  it("parses back every folio it formats", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2026, max: 9999 }),
        fc.integer({ min: 1, max: 999_999 }),
        (year, sequence) => {
          const folio = formatRegistrationFolio(year, sequence);
          expect(parseRegistrationFolio(folio)).toEqual({ folio, year, sequence });
        },
      ),
    );
  });
});
