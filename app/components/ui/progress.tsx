import { progressValue } from "./progress-value";

/**
 * A bar of how much of something there is (spec §9: held within 0 and the maximum, 100 unless
 * told otherwise), as a `progressbar` with its name and values for screen readers. Drawn as SVG,
 * so that it shows the same without JavaScript and needs no style attribute.
 */
export function Progress({
  value,
  max,
  label,
  valueText,
  className,
  testId,
}: {
  value: number;
  max?: number;
  /** The bar's accessible name. */
  label: string;
  /** The value in words ("Te quedan 3 GB"), read instead of a bare number. */
  valueText?: string;
  className?: string;
  testId?: string;
}) {
  const shown = progressValue(value, max);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={shown.max}
      aria-valuenow={shown.value}
      aria-valuetext={valueText}
      className={className}
      data-testid={testId}
    >
      <svg
        viewBox="0 0 100 8"
        preserveAspectRatio="none"
        className="block h-3 w-full overflow-hidden rounded-full"
        aria-hidden="true"
        focusable="false"
      >
        <rect width="100" height="8" className="fill-slate-200" />
        <rect width={shown.percent} height="8" className="fill-primary" />
      </svg>
    </div>
  );
}
