import { describe, expect, it } from "vitest";
import { fillDays } from "./line";
import { CHART_BOX, formatShortDay, niceStep, usageChart } from "./usage-chart";

const days = (values: number[]) =>
  fillDays("2026-03-01", `2026-03-${String(values.length).padStart(2, "0")}`, []).map(
    (day, index) => ({ ...day, dataMb: values[index]! }),
  );

describe("the usage chart's geometry", () => {
  it("draws one bar per day, each in its own slot, standing on the axis", () => {
    const chart = usageChart(days(Array.from({ length: 30 }, (_, index) => index * 10)));
    expect(chart.bars).toHaveLength(30);
    const slot = (CHART_BOX.width - CHART_BOX.left - CHART_BOX.right) / 30;
    for (const [index, bar] of chart.bars.entries()) {
      expect(bar.x).toBeGreaterThanOrEqual(CHART_BOX.left + index * slot);
      expect(bar.x + bar.width).toBeLessThanOrEqual(CHART_BOX.left + (index + 1) * slot + 0.01);
      expect(bar.y + bar.height).toBeCloseTo(chart.plot.bottom, 1);
    }
    expect(chart.bars[0]!.height).toBe(0);
  });

  it("scales to a round top that holds the busiest day, which reaches the right height", () => {
    const chart = usageChart(days([100, 300, 50]));
    // 300 / 4 ticks = 75 → a step of 100 MB, a scale of 400 MB.
    expect(chart.maxMb).toBe(400);
    expect(chart.ticks.map((tick) => tick.valueMb)).toEqual([0, 100, 200, 300, 400]);
    const plotHeight = chart.plot.bottom - chart.plot.top;
    expect(chart.bars[1]!.height).toBeCloseTo(plotHeight * 0.75, 1);
    expect(chart.ticks[4]!.y).toBe(chart.plot.top);
    expect(chart.ticks[0]!.y).toBe(chart.plot.bottom);
    expect(chart.totalMb).toBe(450);
    expect(chart.peak).toEqual({ day: "2026-03-02", dataMb: 300 });
  });

  it("counts gigabytes as the catalogue does, so every tick reads exactly", () => {
    expect(niceStep(0)).toBe(25);
    expect(niceStep(75)).toBe(100);
    expect(niceStep(230)).toBe(256);
    expect(niceStep(700)).toBe(1024);
    expect(niceStep(1500)).toBe(2048);
    expect(usageChart(days([3000])).maxMb).toBe(4096);
  });

  it("has a scale and no peak when nothing was used", () => {
    const chart = usageChart(days([0, 0, 0]));
    expect(chart.maxMb).toBe(100);
    expect(chart.peak).toBeNull();
    expect(chart.bars.every((bar) => bar.height === 0)).toBe(true);
  });

  it("labels today and every seventh day before it", () => {
    const chart = usageChart(days(Array.from({ length: 30 }, () => 1)));
    expect(chart.dayLabels.map((label) => label.day)).toEqual([
      "2026-03-02",
      "2026-03-09",
      "2026-03-16",
      "2026-03-23",
      "2026-03-30",
    ]);
  });

  it("writes a day short, as Mexico City reads it", () => {
    expect(formatShortDay("2026-03-03")).toBe("3 mar");
    expect(formatShortDay("2026-12-31")).toBe("31 dic");
  });
});
