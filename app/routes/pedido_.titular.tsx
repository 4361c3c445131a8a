import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Link,
  redirect,
  useActionData,
  useLoaderData,
} from "react-router";
import { loadOwnOrder } from "~/checkout/order-page-request.server";
import { confirmationPath } from "~/checkout/paths";
import { HolderProofForm } from "~/components/registration/holder-proof-form";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";
import type { RequestContext } from "~/context";
import { loadHolderProofPage, submitHolderProof } from "~/registration/holder-proof-request.server";
import { holderProofPath, REGISTRATION_PATH } from "~/registration/paths";

export const handle = { i18n: ["registration"], query: ["pedido"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/**
 * Only a paid order's holder is asked: an unpaid one costs nothing to place, and the proof would
 * then be a free way to ask the identity validation about anyone. The order's own page for the rest.
 */
async function paidOrder(context: RequestContext, request: Request) {
  const { order } = await loadOwnOrder(context, request);
  if (order.status !== "paid") throw redirect(confirmationPath(order.ref), { status: 303 });
  return order;
}

/**
 * The holder an order names shows their identification (issue 47, decision 0139), for whoever
 * may see the order: its lines are registered to that holder only then.
 */
export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const order = await paidOrder(context, request);
  const page = await loadHolderProofPage(context, order.ref);
  return {
    ...page,
    folio: order.folio,
    orderPath: confirmationPath(order.ref),
    action: holderProofPath(order.ref),
  };
}

export async function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const order = await paidOrder(context, request);
  return submitHolderProof(context, request, {
    ref: order.ref,
    path: confirmationPath(order.ref),
  });
}

const linkClass = "font-medium text-secondary underline underline-offset-4";

export default function HolderProofPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("registration");
  const ended = page.proof.state === "ended" || answer?.ended === true;
  return (
    <>
      <PageHeader title={t("proof.heading")}>
        {t("proof.intro", {
          folio: page.folio,
          name: page.holderName,
          key: page.holderKeyMasked,
        })}
      </PageHeader>
      {page.proof.state === "proved" ? (
        <p className="mb-6 text-slate-800" data-testid="holder-proof-done">
          {t("proof.proved", { name: page.holderName, date: formatDateTime(page.proof.provedAt) })}
        </p>
      ) : ended ? (
        <section aria-labelledby="proof-ended" className="mb-6 max-w-2xl space-y-3">
          {answer ? (
            <ErrorSummary
              refused={refusal(answer.result)}
              formErrors={Object.values(answer.result.error?.[""] ?? [])}
              heading="registration:holder.errorSummary"
              fields={[]}
            />
          ) : null}
          <h2 id="proof-ended" className="text-xl font-bold text-slate-900">
            {t("proof.endedHeading")}
          </h2>
          <p className="text-slate-800" data-testid="holder-proof-ended">
            {t("proof.ended")}{" "}
            <Link to={REGISTRATION_PATH} className={linkClass}>
              {t("proof.registerLater")}
            </Link>
          </p>
        </section>
      ) : (
        <>
          <p className="mb-2 text-slate-800">{t("proof.why", { hours: page.waitHours })}</p>
          <HolderProofForm
            kind={page.kind}
            action={page.action}
            identificationType={page.identificationType}
            idempotencyKey={page.formKey}
            attemptsLeft={page.proof.state === "to-prove" ? page.proof.attemptsLeft : 0}
            lastResult={answer?.result}
          />
        </>
      )}
      <p className="mt-8">
        <Link to={page.orderPath} className={linkClass}>
          {t("proof.backToOrder")}
        </Link>
      </p>
    </>
  );
}
