import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import { PointsPage } from "~/components/points-of-service/points-search";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { shareMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";
import { loadPointsPage } from "~/points-of-service/points-page.server";

export const handle = { i18n: ["registration", "commerce"], query: ["cp", "estado", "servicio"] };

export const meta = shareMeta;

export { headers } from "~/lib/route-headers";

/** The operator's points of service, found by postal code or state (issue 48, decision 0140). */
export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  return loadPointsPage(routerContext.get(requestContext), url);
}

export default function PointsOfServicePage() {
  const { sample, search, presetService } = useLoaderData<typeof loader>();
  const { t } = useTranslation("registration");
  const postalCode = search?.result.initialValue?.cp;
  const state = search?.result.initialValue?.estado;
  return (
    <>
      <PageHeader title={t("places.heading")}>{t("places.lead")}</PageHeader>
      <PointsPage
        sample={sample}
        search={search}
        presetService={presetService}
        postalCode={typeof postalCode === "string" ? postalCode : null}
        state={typeof state === "string" ? state : null}
      />
    </>
  );
}
