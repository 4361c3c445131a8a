import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
} from "react-router";
import {
  AssistedValidationDone,
  AssistedValidationForm,
} from "~/components/registration/assisted-validation";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";
import {
  loadAssistedValidationPage,
  submitAssistedValidation,
} from "~/registration/assisted-validation-request.server";

export const handle = { i18n: ["registration"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** The request for an assisted validation, the online alternative to a store (decision 0140). */
export function loader({ context: routerContext }: LoaderFunctionArgs) {
  return loadAssistedValidationPage(routerContext.get(requestContext));
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  return submitAssistedValidation(routerContext.get(requestContext), request);
}

export default function AssistedValidationPage() {
  const { idempotencyKey } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("registration");
  return (
    <>
      <PageHeader title={t("assisted.heading")}>{t("assisted.lead")}</PageHeader>
      {answer?.receipt ? (
        <AssistedValidationDone receipt={answer.receipt} />
      ) : (
        <AssistedValidationForm idempotencyKey={idempotencyKey} answer={answer} />
      )}
    </>
  );
}
