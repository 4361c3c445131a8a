import { MB_PER_GB } from "~/topup/amounts";
import type { DailyUsage } from "./line";

/**
 * The geometry of the line page's usage chart: one bar of data per day, drawn by the server as
 * SVG (readable without JavaScript). Pure: the same days always give the same drawing.
 */

/** The drawing's box (SVG user units) and the margins that hold the axis labels. */
export const CHART_BOX = {
  width: 640,
  height: 240,
  left: 64,
  right: 24,
  top: 12,
  bottom: 28,
} as const;

/** How much of each day's slot its bar takes. */
const BAR_SHARE = 0.7;

/** Ticks of the vertical axis besides zero. */
const TICKS = 4;

export interface ChartBar {
  day: string;
  dataMb: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartTick {
  y: number;
  valueMb: number;
}

export interface ChartDayLabel {
  day: string;
  /** The centre of the day's bar. */
  x: number;
}

export interface UsageChartGeometry {
  width: number;
  height: number;
  /** The plot area: bars stand on `bottom`, the tallest tick is at `top`. */
  plot: { left: number; right: number; top: number; bottom: number };
  /** The top of the scale, in MB. */
  maxMb: number;
  bars: ChartBar[];
  /** Zero first. */
  ticks: ChartTick[];
  /** Today and every seventh day before it. */
  dayLabels: ChartDayLabel[];
  totalMb: number;
  /** The day that used most data; null when none used any. */
  peak: { day: string; dataMb: number } | null;
}

const MB_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200];
const GB_STEPS = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/**
 * A round step of the axis at least `rawMb`: 1, 2, 5… MB below 256 MB, then quarters, halves
 * and whole gigabytes (1 GB = 1024 MB, as the catalogue counts), so that every tick reads
 * exactly in MB or GB.
 */
export function niceStep(rawMb: number): number {
  if (rawMb <= 0) return 25;
  const mb = MB_STEPS.find((step) => step >= rawMb);
  if (mb !== undefined) return mb;
  const gb = GB_STEPS.find((step) => step * MB_PER_GB >= rawMb);
  if (gb !== undefined) return gb * MB_PER_GB;
  return Math.ceil(rawMb / (1000 * MB_PER_GB)) * 1000 * MB_PER_GB;
}

const round = (value: number) => Math.round(value * 100) / 100;

export function usageChart(days: readonly DailyUsage[]): UsageChartGeometry {
  const box = CHART_BOX;
  const plot = {
    left: box.left,
    right: box.width - box.right,
    top: box.top,
    bottom: box.height - box.bottom,
  };
  const values = days.map((entry) => Math.max(0, entry.dataMb));
  const highest = values.length ? Math.max(...values) : 0;
  const step = niceStep(highest / TICKS);
  const maxMb = step * TICKS;
  const plotHeight = plot.bottom - plot.top;
  const slot = days.length ? (plot.right - plot.left) / days.length : 0;
  const barWidth = slot * BAR_SHARE;
  const yOf = (valueMb: number) => plot.bottom - (valueMb / maxMb) * plotHeight;

  const bars = days.map((entry, index) => {
    const dataMb = values[index]!;
    const height = round((dataMb / maxMb) * plotHeight);
    return {
      day: entry.day,
      dataMb,
      x: round(plot.left + index * slot + (slot - barWidth) / 2),
      y: round(plot.bottom - height),
      width: round(barWidth),
      height,
    };
  });
  const ticks = Array.from({ length: TICKS + 1 }, (_, index) => ({
    valueMb: step * index,
    y: round(yOf(step * index)),
  }));
  const dayLabels: ChartDayLabel[] = [];
  for (let index = days.length - 1; index >= 0; index -= 7) {
    dayLabels.unshift({ day: days[index]!.day, x: round(plot.left + (index + 0.5) * slot) });
  }
  const totalMb = values.reduce((sum, value) => sum + value, 0);
  const peakIndex = values.indexOf(highest);
  return {
    width: box.width,
    height: box.height,
    plot,
    maxMb,
    bars,
    ticks,
    dayLabels,
    totalMb,
    peak: highest > 0 ? { day: days[peakIndex]!.day, dataMb: highest } : null,
  };
}

// Made on first use: the first Intl object a page builds loads ICU's data (decision 0128).
let shortDay: Intl.DateTimeFormat | undefined;

/** "3 mar": a YYYY-MM-DD day of Mexico City, read at its noon so that no zone moves it. */
export function formatShortDay(day: string): string {
  shortDay ??= new Intl.DateTimeFormat("es-MX", {
    day: "numeric",
    month: "short",
    timeZone: "America/Mexico_City",
  });
  return shortDay.format(new Date(`${day}T12:00:00-06:00`)).replace(".", "");
}
