import { Link } from "react-router";
import { useTranslation } from "~/i18n/react";

/** "¿Necesitas factura (CFDI)? Solicitar factura": from a paid purchase's page to its invoicing. */
export function InvoicingLink({ to, testId }: { to: string; testId: string }) {
  const { t } = useTranslation("common");
  return (
    <p className="mb-6 text-slate-800 print:hidden">
      {t("invoicing.lead")}{" "}
      <Link
        to={to}
        className="font-medium text-secondary underline underline-offset-4"
        data-testid={testId}
      >
        {t("invoicing.request")}
      </Link>
    </p>
  );
}
