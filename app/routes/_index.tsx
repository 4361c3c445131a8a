import { useTranslation } from "~/i18n/react";
import { PageHeader } from "~/components/ui/page-header";
import { titleMeta } from "~/lib/meta";

// The home page has no page title of its own: the tab shows the app title alone.
export const meta = titleMeta;

export default function HomePage() {
  const { t } = useTranslation();
  return <PageHeader title={t("pages.home.heading")}>{t("app.tagline")}</PageHeader>;
}
