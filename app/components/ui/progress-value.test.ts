import { describe, expect, it } from "vitest";
import { DEFAULT_PROGRESS_MAX, progressValue } from "./progress-value";

describe("a progress bar's value (spec §9)", () => {
  it("is out of 100 unless told otherwise", () => {
    expect(DEFAULT_PROGRESS_MAX).toBe(100);
    expect(progressValue(40)).toEqual({ value: 40, max: 100, percent: 40 });
    expect(progressValue(3, 4)).toEqual({ value: 3, max: 4, percent: 75 });
  });

  it("is held within 0 and the maximum: the bar is never less than empty nor more than full", () => {
    expect(progressValue(-5)).toEqual({ value: 0, max: 100, percent: 0 });
    expect(progressValue(140)).toEqual({ value: 100, max: 100, percent: 100 });
    expect(progressValue(9, 4)).toEqual({ value: 4, max: 4, percent: 100 });
    expect(progressValue(Infinity)).toEqual({ value: 100, max: 100, percent: 100 });
    expect(progressValue(-Infinity)).toEqual({ value: 0, max: 100, percent: 0 });
  });

  it("takes the default for a maximum that is not a positive number, and nothing for no number", () => {
    for (const max of [0, -10, NaN, Infinity]) {
      expect(progressValue(50, max), String(max)).toEqual({ value: 50, max: 100, percent: 50 });
    }
    expect(progressValue(NaN)).toEqual({ value: 0, max: 100, percent: 0 });
  });
});
