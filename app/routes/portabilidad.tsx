import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import { PORTABILITY_MAX_HOURS } from "~/catalog/terms";
import { PortabilityExplanation } from "~/components/portability/explanation";
import { SubmittedRequest } from "~/components/portability/request-details";
import { RequestForm } from "~/components/portability/request-form";
import { StatusLookup } from "~/components/portability/status-lookup";
import { Alert } from "~/components/ui/alert";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { shareMeta } from "~/lib/meta";
import {
  loadPortabilityPage,
  submitPortabilityRequest,
} from "~/portability/portability-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["portability"], query: ["solicitud", "folio", "numero"] };

export const meta = shareMeta;

export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return loadPortabilityPage(context, url);
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitPortabilityRequest(context, request, getCustomer(context));
}

export default function PortabilityPage() {
  const { submitted, submittedElsewhere, lookup, idempotencyKey } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("portability");
  const prefill = submitted?.folio ?? submittedElsewhere;
  return (
    <>
      <PageHeader title={t("heading")}>{t("intro", { hours: PORTABILITY_MAX_HOURS })}</PageHeader>
      {submitted ? (
        <SubmittedRequest request={submitted} />
      ) : (
        <>
          {submittedElsewhere ? (
            <Alert tone="info" className="mb-8">
              {t("result.onlyHere")}
            </Alert>
          ) : null}
          <div className="grid gap-10 lg:grid-cols-5">
            <PortabilityExplanation />
            <RequestForm idempotencyKey={idempotencyKey} answer={answer} />
          </div>
        </>
      )}
      {/* Remounted when the folio to fill in changes: a form reads its defaults once. */}
      <StatusLookup key={prefill ?? ""} lookup={lookup} folio={prefill} />
    </>
  );
}
