import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, data, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { getFixedT } from "~/i18n/i18n.server";
import { titleMeta } from "~/lib/meta";

export const meta = titleMeta;

/** Any path no route matches: a 404 shown inside the normal layout (spec §2, non-fatal). */
export function loader({ request }: LoaderFunctionArgs) {
  const t = getFixedT();
  const path = new URL(request.url).pathname;
  return data({ title: t("errors.notFoundTitle"), path }, { status: 404 });
}

export default function NotFoundPage() {
  const { path } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="py-12 text-center" data-testid="not-found">
      <p className="text-sm font-semibold text-error">{t("errors.status", { status: 404 })}</p>
      <h1 className="mt-2 text-3xl font-bold">{t("errors.notFoundTitle")}</h1>
      <p className="mt-4 text-lg">{t("errors.notFoundMessage", { path })}</p>
      <p className="mt-2 text-slate-700">{t("errors.notFoundHint")}</p>
      <Link
        to="/"
        className="mt-8 inline-block rounded bg-primary px-5 py-3 font-semibold text-white hover:bg-primary-dark"
      >
        {t("errors.backHome")}
      </Link>
    </section>
  );
}
