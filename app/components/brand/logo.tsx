import brand from "~/brand/brand.json";

const { colors, mark } = brand;

/** The mark alone: a green tile with a signal reaching out. Decorative; the link names it. */
export function BrandMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width={size}
      height={size}
      viewBox={`0 0 ${mark.size} ${mark.size}`}
      className={className}
    >
      <path d={mark.tile} fill={colors.primary} />
      <path d={mark.dot} fill={colors.onPrimary} />
      <g fill="none" strokeWidth={mark.strokeWidth} strokeLinecap="round">
        <path d={mark.innerArc} stroke={colors.onPrimary} />
        <path d={mark.outerArc} stroke={colors.arcAccent} />
      </g>
    </svg>
  );
}

/**
 * Mark and wordmark. The wordmark is the app title, first word green and the rest blue (white
 * and light blue on dark backgrounds); it never wraps, and on the narrowest screens only the mark
 * shows (the surrounding link carries the name for assistive technology).
 */
export function Logo({
  name,
  tone = "light",
  compact = false,
  className = "",
}: {
  name: string;
  tone?: "light" | "dark";
  /**
   * Only the mark below 410 px, where the name would push the header's buttons off the screen,
   * and from 768 to 1023 px, where the whole navigation shares the bar with it (a link around
   * the logo names it).
   */
  compact?: boolean;
  className?: string;
}) {
  const space = name.indexOf(" ");
  const first = space > 0 ? name.slice(0, space) : name;
  const rest = space > 0 ? name.slice(space) : "";
  return (
    <span
      className={`inline-flex items-center gap-2 whitespace-nowrap ${className}`}
      data-testid="brand-logo"
    >
      <BrandMark size={compact ? 28 : 32} className="shrink-0" />
      <span
        className={`font-extrabold tracking-tight ${compact ? "text-base max-[409px]:hidden sm:text-xl md:max-lg:hidden" : "text-lg"}`}
        data-testid="brand-wordmark"
      >
        <span className={tone === "light" ? "text-primary-dark" : "text-white"}>{first}</span>
        <span className={tone === "light" ? "text-secondary" : "text-blue-300"}>{rest}</span>
      </span>
    </span>
  );
}
