import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";

/** A link to another site, in a new tab, that gives that site no handle on this one. */
export function ExternalLink({
  href,
  className,
  label,
  children,
  onClick,
}: {
  href: string;
  className?: string;
  onClick?: () => void;
  /** Accessible name when the visible content is only an icon. */
  label?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      onClick={onClick}
      aria-label={label ? `${label} ${t("nav.newTab")}` : undefined}
    >
      {children}
      {label ? null : <span className="sr-only"> {t("nav.newTab")}</span>}
    </a>
  );
}
