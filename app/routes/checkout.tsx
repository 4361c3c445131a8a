import { useTranslation } from "~/i18n/react";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { titleMeta } from "~/lib/meta";

export const meta = titleMeta;

export function loader() {
  return { title: getFixedT()("pages.checkout.title") };
}

export default function CheckoutPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.checkout.heading")} />
      <p>{t("comingSoon")}</p>
    </>
  );
}
