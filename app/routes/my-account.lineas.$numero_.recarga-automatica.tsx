import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { loadAutoTopupPage, submitAutoTopup } from "~/auto-topup/auto-topup-request.server";
import { AutoTopupForm, AutoTopupOffForm } from "~/components/auto-topup/auto-topup-form";
import { AutoTopupRuleText } from "~/components/auto-topup/auto-topup-summary";
import { formatTotal } from "~/catalog/money";
import { Alert } from "~/components/ui/alert";
import { DataTable } from "~/components/ui/data-table";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { translateFormMessage } from "~/lib/form-messages";
import { titleMeta } from "~/lib/meta";
import { formatLineNumber } from "~/line/line-view";
import { linePath } from "~/line/paths";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["line", "topup", "commerce"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** A line's automatic top-up (decision 0120): its settings and its last charges. */
export function loader({ request, context: routerContext, params }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return loadAutoTopupPage(context, customer, params.numero);
}

export function action({ request, context: routerContext, params }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return submitAutoTopup(context, request, customer, params.numero);
}

const linkClass = "font-medium text-secondary underline underline-offset-4";

/** The fields the form shows with their own messages (and its summary, ""). */
const FIELDS_SHOWN = new Set(["", "amount", "cuando", "tope", "tarjeta"]);

export default function AutoTopupPage() {
  const { number, summary, cards, charges, topUpTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation("topup");
  const state = summary?.state ?? "off";
  // What the form cannot show beside a field of its own (a form sent without its intent, or with
  // no saved card to choose): said above it.
  const unplaced = Object.entries(lastResult?.error ?? {})
    .filter(([name]) => !FIELDS_SHOWN.has(name) || cards.length === 0)
    .flatMap(([, messages]) => messages ?? []);
  return (
    <>
      <p className="mb-4">
        <Link to={linePath(number)} className={linkClass}>
          {t("auto.backToLine", { number: formatLineNumber(number) })}
        </Link>
      </p>
      <PageHeader title={t("auto.pageHeading", { number: formatLineNumber(number) })}>
        {t("auto.intro")}
      </PageHeader>
      <Alert
        tone={state === "active" ? "success" : "info"}
        className="mb-8 max-w-3xl"
        testId="auto-topup-state"
      >
        <p className="font-semibold" data-state={state}>
          {t(`line:autoTopup.state.${state}`)}
        </p>
        {summary && state !== "off" ? (
          <p className="mt-1">
            <AutoTopupRuleText summary={summary} />
          </p>
        ) : null}
        {summary?.stopReason ? (
          <p className="mt-1">{t(`line:autoTopup.stopReason.${summary.stopReason}`)}</p>
        ) : null}
      </Alert>
      {unplaced.length ? (
        <Alert className="mb-6 max-w-3xl" testId="auto-topup-refused">
          {translateFormMessage(t, unplaced[0]!)}
        </Alert>
      ) : null}
      <AutoTopupForm summary={summary} cards={cards} topUpTo={topUpTo} lastResult={lastResult} />
      {state === "active" || state === "paused" ? <AutoTopupOffForm /> : null}
      <section className="mt-10" aria-labelledby="auto-topup-charges">
        <h2 id="auto-topup-charges" className="mb-4 text-2xl font-bold text-slate-900">
          {t("auto.chargesHeading")}
        </h2>
        {charges.length ? (
          <DataTable
            caption={t("auto.chargesCaption")}
            testId="auto-topup-charges"
            rowTestId="auto-topup-charge"
            rows={charges}
            rowKey={(charge) => charge.id}
            columns={[
              { header: t("auto.chargeDate"), cell: (charge) => charge.date },
              { header: t("auto.chargeAmount"), cell: (charge) => formatTotal(charge.amount) },
              {
                header: t("auto.chargeState"),
                cell: (charge) => t(`auto.chargeStates.${charge.state}`),
                cellProps: (charge) => ({ "data-state": charge.state }),
              },
              {
                header: t("auto.chargeReceipt"),
                cell: (charge) =>
                  charge.receipt ? (
                    <Link to={charge.receipt} className={linkClass}>
                      {t("auto.chargeReceiptLink")}
                    </Link>
                  ) : (
                    "—"
                  ),
              },
            ]}
          />
        ) : (
          <p className="text-slate-800">{t("auto.chargesEmpty")}</p>
        )}
      </section>
    </>
  );
}
