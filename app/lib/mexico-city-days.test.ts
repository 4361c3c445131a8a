import { describe, expect, it } from "vitest";
import {
  addDaysToDate,
  isIsoDate,
  mexicoCityDate,
  mexicoCityDateTime,
  mexicoCityDayStart,
  mexicoCityRange,
  todayInMexico,
} from "./mexico-city-days";

describe("Mexico City days", () => {
  it("accepts only real YYYY-MM-DD dates", () => {
    expect(isIsoDate("2026-03-10")).toBe(true);
    expect(isIsoDate("2028-02-29")).toBe(true);
    for (const value of [
      "2026-02-29",
      "2026-13-01",
      "2026-3-10",
      "10/03/2026",
      "",
      "2026-03-10x",
    ]) {
      expect(isIsoDate(value)).toBe(false);
    }
  });

  it("begin at midnight in Mexico City (UTC-6 since 2022)", () => {
    expect(mexicoCityDayStart("2026-03-10")).toBe("2026-03-10T06:00:00.000Z");
    expect(mexicoCityDayStart("2026-07-01")).toBe("2026-07-01T06:00:00.000Z");
  });

  it("follow the daylight saving time of the years that had it", () => {
    // Summer 2021: UTC-5.
    expect(mexicoCityDayStart("2021-07-01")).toBe("2021-07-01T05:00:00.000Z");
    expect(mexicoCityDayStart("2021-01-15")).toBe("2021-01-15T06:00:00.000Z");
  });

  it("name the day and time of an instant as read in Mexico City", () => {
    expect(mexicoCityDate("2026-03-11T05:30:00Z")).toBe("2026-03-10");
    expect(mexicoCityDateTime("2026-03-11T05:30:00Z")).toBe("2026-03-10 23:30");
    expect(mexicoCityDateTime("2026-03-11T06:05:00Z")).toBe("2026-03-11 00:05");
    expect(todayInMexico(new Date("2026-01-01T03:00:00Z"))).toBe("2025-12-31");
  });

  it("count calendar days across months and years", () => {
    expect(addDaysToDate("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDaysToDate("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("make a range with both ends included", () => {
    expect(mexicoCityRange({ from: "2026-03-01", to: "2026-03-31" })).toEqual({
      fromInstant: "2026-03-01T06:00:00.000Z",
      toInstant: "2026-04-01T06:00:00.000Z",
    });
    expect(mexicoCityRange({})).toEqual({ fromInstant: undefined, toInstant: undefined });
    expect(() => mexicoCityRange({ from: "2026-03-02", to: "2026-03-01" })).toThrow(RangeError);
    expect(() => mexicoCityRange({ from: "marzo" })).toThrow(RangeError);
  });
});
