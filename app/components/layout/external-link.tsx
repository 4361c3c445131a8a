import { forwardRef, type AnchorHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";

/**
 * A link to another site, in a new tab, that gives that site no handle on this one. Other props
 * (a tooltip's handlers) reach the link.
 */
export const ExternalLink = forwardRef<
  HTMLAnchorElement,
  Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "target" | "rel"> & {
    href: string;
    /** Accessible name when the visible content is only an icon. */
    label?: string;
    children: ReactNode;
  }
>(function ExternalLink({ href, label, children, ...rest }, ref) {
  const { t } = useTranslation();
  return (
    <a
      {...rest}
      ref={ref}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label ? `${label} ${t("nav.newTab")}` : undefined}
    >
      {children}
      {label ? null : <span className="sr-only"> {t("nav.newTab")}</span>}
    </a>
  );
});
