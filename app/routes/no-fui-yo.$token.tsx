import {
  Form,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useLoaderData,
} from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";
import { loadDisputePage, submitDispute } from "~/registration/dispute-request.server";

export const handle = { i18n: ["registration"] };

/** The address is the key to the notice: search engines must not keep it. */
export const meta: typeof titleMeta = (args) => [
  ...titleMeta(args),
  { name: "robots", content: "noindex" },
];

export { headers } from "~/lib/route-headers";

/** "No fui yo": the recipient of a new registration's notice tells the operator (decision 0136). */
export function loader({ context: routerContext, params }: LoaderFunctionArgs) {
  return loadDisputePage(routerContext.get(requestContext), params.token);
}

export function action({ context: routerContext, params }: ActionFunctionArgs) {
  return submitDispute(routerContext.get(requestContext), params.token);
}

export default function RegistrationDisputePage() {
  const { line, registeredAt, disputed } = useLoaderData<typeof loader>();
  const { t } = useTranslation("registration");
  const date = formatDateTime(registeredAt);
  return (
    <>
      <PageHeader title={t("dispute.heading")}>{t("dispute.lead", { line, date })}</PageHeader>
      {disputed ? (
        <section
          aria-labelledby="dispute-done"
          className="max-w-2xl space-y-2"
          data-testid="dispute-done"
        >
          <h2 id="dispute-done" className="text-2xl font-bold text-slate-900">
            {t("dispute.doneHeading")}
          </h2>
          <p className="text-slate-800">{t("dispute.doneLead", { line })}</p>
          <p className="text-slate-800">{t("dispute.meanwhile")}</p>
        </section>
      ) : (
        <Form method="post" className="max-w-2xl space-y-4" data-testid="dispute-form">
          <p className="text-slate-800">{t("dispute.question")}</p>
          <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("dispute.submitting")}>
            {t("dispute.submit")}
          </SubmitButton>
          <p className="text-sm text-slate-700">{t("dispute.ifYou")}</p>
        </Form>
      )}
    </>
  );
}
