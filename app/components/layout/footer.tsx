import { Link } from "react-router";
import { BALANCE_PATH } from "~/line/paths";
import { POINTS_OF_SERVICE_PATH } from "~/registration/paths";
import { useTranslation } from "~/i18n/react";
import { FOOTER_YEAR, LEGAL_DOCUMENTS, legalDocumentPath } from "~/lib/external-links";
import type { ShellData } from "~/lib/shell";
import { Logo } from "~/components/brand/logo";
import { ExternalLink } from "./external-link";

export function Footer({ shell }: { shell: ShellData | undefined }) {
  const { t } = useTranslation();
  const social = shell
    ? [
        { href: shell.links.whatsapp, label: t("footer.whatsapp") },
        { href: shell.links.tiktok, label: t("footer.tiktok") },
        { href: shell.links.instagram, label: t("footer.instagram") },
        { href: shell.links.facebook, label: t("footer.facebook") },
      ]
    : [];
  const headingClass = "mb-3 text-base font-bold text-white";
  const linkClass = "text-slate-100 underline-offset-4 hover:underline";

  return (
    <footer // On the dark footer the focus ring is white: the page's blue ring has too little contrast here.
      className="mt-16 bg-slate-900 text-slate-100 print:hidden [&_:focus-visible]:outline-white"
      data-testid="footer"
    >
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className={headingClass}>
            {t("footer.social")}
          </h2>
          <ul className="space-y-2">
            {social.map((item) => (
              <li key={item.href}>
                <ExternalLink href={item.href} className={linkClass}>
                  {item.label}
                </ExternalLink>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className={headingClass}>
            {t("footer.contactTitle")}
          </h2>
          <p className="mb-3 text-sm text-slate-200">{t("footer.contactText")}</p>
          {shell ? (
            <>
              <p className="mb-2">
                <ExternalLink href={shell.links.chat} className={linkClass}>
                  {t("footer.contactChat")}
                </ExternalLink>
              </p>
              <p className="mb-2">
                <Link to="/pedido" className={linkClass}>
                  {t("footer.orderLookup")}
                </Link>
              </p>
              <p className="mb-2">
                <Link to={BALANCE_PATH} className={linkClass}>
                  {t("footer.balanceLookup")}
                </Link>
              </p>
              <p className="mb-2">
                <Link to={POINTS_OF_SERVICE_PATH} className={linkClass}>
                  {t("footer.pointsOfService")}
                </Link>
              </p>
              <p className="text-sm">
                {t("footer.contactEmailLabel")}{" "}
                <a
                  href={`mailto:${shell.contactEmail}`}
                  className={`${linkClass} [overflow-wrap:anywhere]`}
                >
                  {shell.contactEmail}
                </a>
              </p>
            </>
          ) : null}
        </section>
        <section aria-labelledby="footer-legal" className="lg:col-span-2">
          <h2 id="footer-legal" className={headingClass}>
            {t("footer.legalTitle")}
          </h2>
          <ul className="grid gap-2 sm:grid-cols-2">
            {LEGAL_DOCUMENTS.map((slug) => (
              <li key={slug}>
                <a href={legalDocumentPath(slug)} className={linkClass} download>
                  {t(`footer.documents.${slug}`)}{" "}
                  <span className="text-xs text-slate-300">({t("footer.pdf")})</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="border-t border-slate-700">
        <div className="mx-auto max-w-6xl space-y-1 px-4 py-6 text-sm text-slate-300">
          <p className="mb-3">
            <Logo name={t("app.title")} tone="dark" />
          </p>
          <p>
            <span className="font-semibold text-slate-100">{t("footer.addressTitle")}: </span>
            {t("footer.companyName")}, {t("footer.address")}
          </p>
          <p>{t("footer.copyright", { year: FOOTER_YEAR })}</p>
        </div>
      </div>
    </footer>
  );
}
