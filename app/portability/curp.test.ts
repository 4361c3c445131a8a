import { describe, expect, it } from "vitest";
import { curpCheckDigit, isValidCurp, normalizeCurp } from "./curp";

const withCheckDigit = (first17: string) => first17 + curpCheckDigit(first17);

describe("CURP", () => {
  const valid = withCheckDigit("GOMA850312MDFRRN0");

  it("accepts a well-formed CURP with its check digit, in any case and with stray spaces", () => {
    expect(isValidCurp(valid)).toBe(true);
    expect(isValidCurp(` ${valid.toLowerCase()} `)).toBe(true);
    expect(normalizeCurp(" goma850312mdfrrn0 5")).toBe("GOMA850312MDFRRN05");
  });

  it("rejects a wrong check digit", () => {
    const wrong = valid.slice(0, 17) + ((Number(valid[17]) + 1) % 10);
    expect(isValidCurp(wrong)).toBe(false);
  });

  it.each([
    ["too short", "GOMA850312MDFRRN0"],
    ["month 13", withCheckDigit("GOMA851312MDFRRN0")],
    ["day 32", withCheckDigit("GOMA850332MDFRRN0")],
    ["unknown sex", withCheckDigit("GOMA850312ZDFRRN0")],
    ["unknown state", withCheckDigit("GOMA850312MXXRRN0")],
    ["vowel where a consonant goes", withCheckDigit("GOMA850312MDFARN0")],
    ["digits in the name", withCheckDigit("G0MA850312MDFRRN0")],
  ])("rejects a CURP with %s", (_case, curp) => {
    expect(isValidCurp(curp)).toBe(false);
  });

  it("accepts people born abroad (NE) and non-binary marker X", () => {
    expect(isValidCurp(withCheckDigit("PEXJ010101XNEPRS0"))).toBe(true);
  });
});
