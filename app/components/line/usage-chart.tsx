import { useTranslation } from "~/i18n/react";
import type { DailyUsage } from "~/line/line";
import { formatShortDay, usageChart } from "~/line/usage-chart";
import { useDataText } from "./line-figures";

/**
 * The line's usage by day as a bar chart the server draws (SVG: it reads without JavaScript),
 * with the same figures as a table for screen readers (the chart is one image to them).
 */
export function UsageChart({ days, from, to }: { days: DailyUsage[]; from: string; to: string }) {
  const { t } = useTranslation("line");
  const text = useDataText();
  const chart = usageChart(days);
  const range = { from: formatShortDay(from), to: formatShortDay(to) };
  const summary = chart.peak
    ? t("page.chartSummary", {
        total: text(chart.totalMb),
        day: formatShortDay(chart.peak.day),
        peak: text(chart.peak.dataMb),
      })
    : t("page.chartNothing");
  return (
    <figure className="max-w-3xl">
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby="usage-chart-title usage-chart-summary"
        data-testid="usage-chart"
      >
        <title id="usage-chart-title">{t("page.chartTitle", range)}</title>
        {chart.ticks.map((tick) => (
          <g key={tick.valueMb}>
            <line
              x1={chart.plot.left}
              x2={chart.plot.right}
              y1={tick.y}
              y2={tick.y}
              className="stroke-slate-200"
              strokeWidth="1"
            />
            <text
              x={chart.plot.left - 6}
              y={tick.y}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-slate-700 text-[13px]"
            >
              {text(tick.valueMb)}
            </text>
          </g>
        ))}
        {chart.bars.map((bar) => (
          <rect
            key={bar.day}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            className="fill-secondary"
            data-testid="usage-bar"
            data-day={bar.day}
            data-mb={bar.dataMb}
          >
            <title>{`${formatShortDay(bar.day)}: ${text(bar.dataMb)}`}</title>
          </rect>
        ))}
        <line
          x1={chart.plot.left}
          x2={chart.plot.right}
          y1={chart.plot.bottom}
          y2={chart.plot.bottom}
          className="stroke-slate-500"
          strokeWidth="1"
        />
        {chart.dayLabels.map((label) => (
          <text
            key={label.day}
            x={label.x}
            y={chart.plot.bottom + 18}
            textAnchor="middle"
            className="fill-slate-700 text-[13px]"
          >
            {formatShortDay(label.day)}
          </text>
        ))}
      </svg>
      <figcaption id="usage-chart-summary" className="mt-2 text-slate-800">
        {summary}
      </figcaption>
      <table className="sr-only" data-testid="usage-table">
        <caption>{t("page.tableCaption", range)}</caption>
        <thead>
          <tr>
            <th scope="col">{t("page.day")}</th>
            <th scope="col">{t("page.dataUsed")}</th>
            <th scope="col">{t("page.minutesUsed")}</th>
            <th scope="col">{t("page.smsUsed")}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatShortDay(day.day)}</th>
              <td>{text(day.dataMb)}</td>
              <td>{day.minutes}</td>
              <td>{day.sms}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
