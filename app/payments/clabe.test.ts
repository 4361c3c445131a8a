import { describe, expect, it } from "vitest";
import { clabeControlDigit, formatClabe, isValidClabe } from "./clabe";

describe("CLABE", () => {
  it("computes Banxico's control digit", () => {
    // Published examples: Banamex 002 plaza 010, and STP 646 plaza 180.
    expect(clabeControlDigit("00201007777777777")).toBe(1);
    expect(isValidClabe("002010077777777771")).toBe(true);
    expect(clabeControlDigit("03218000011835971")).toBe(9);
    expect(isValidClabe("032180000118359719")).toBe(true);
  });

  it("refuses a wrong control digit, a wrong length or letters", () => {
    expect(isValidClabe("002010077777777772")).toBe(false);
    expect(isValidClabe("00201007777777777")).toBe(false);
    expect(isValidClabe("00201007777777777a")).toBe(false);
  });

  it("groups the digits as bank apps show them", () => {
    expect(formatClabe("646180000000000013")).toBe("646 180 00000000001 3");
  });
});
