import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import { LineFiguresView } from "~/components/line/line-figures";
import { LineCodeForm, LineNumberForm } from "~/components/line/line-code-forms";
import { RegisterLineLink } from "~/components/line/register-line-link";
import { SubmitButton } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { shareMeta } from "~/lib/meta";
import { loadBalancePage, submitBalance } from "~/line/balance-request.server";
import { LINE_FORM_INTENTS } from "~/line/line-forms";
import { formatLineNumber } from "~/line/line-view";
import { LINES_PATH } from "~/line/paths";
import { TOPUP_PATH } from "~/topup/paths";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["line"] };

export const meta = shareMeta;

export { headers } from "~/lib/route-headers";

/**
 * A line's balance without an account: the number, the code sent to it by SMS, then the line's
 * figures for a quarter of an hour in this browser. The same answers whether or not the number
 * is a line. A signed-in customer's own line shows without a code.
 */
export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return loadBalancePage(context);
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitBalance(context, request, getCustomer(context)?.sub ?? null);
}

const linkClass = "font-medium text-secondary underline underline-offset-4";

export default function BalancePage() {
  const { step, number, figures, idempotencyKey } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("line");
  return (
    <>
      <PageHeader title={t("balance.heading")}>
        {step === "shown" ? null : t("balance.intro")}
      </PageHeader>
      {step === "shown" && number && figures ? (
        <section aria-labelledby="balance-line" className="max-w-4xl">
          <h2 id="balance-line" className="mb-4 font-mono text-2xl font-bold text-slate-900">
            {t("balance.lineHeading", { number: formatLineNumber(number) })}
          </h2>
          <LineFiguresView
            figures={figures}
            topUpTo={`${TOPUP_PATH}?numero=${encodeURIComponent(number)}`}
          />
          <RegisterLineLink />
          <p className="mt-6 text-sm text-slate-700">{t("balance.shownFor")}</p>
        </section>
      ) : null}
      {step === "code" && number ? (
        <LineCodeForm
          idempotencyKey={idempotencyKey}
          codeHint={t("balance.code_hint")}
          lastResult={answer?.form === "code" ? answer.result : undefined}
          number={number}
          sendNumber={false}
          lead={t("balance.codeSent", { number: formatLineNumber(number) })}
          submitLabel={t("balance.submitCode")}
          pendingLabel={t("add.confirming")}
        />
      ) : null}
      {step === "number" ? (
        <LineNumberForm
          idempotencyKey={idempotencyKey}
          lastResult={answer?.form === "number" ? answer.result : undefined}
          submitLabel={t("add.submit")}
          pendingLabel={t("add.submitting")}
        />
      ) : (
        <Form method="post" className="mt-6">
          <SubmitButton
            name="intent"
            value={LINE_FORM_INTENTS.forget}
            variant="outline"
            width="blockOnPhone"
            pendingLabel={t("balance.forgetting")}
          >
            {t("balance.other")}
          </SubmitButton>
        </Form>
      )}
      <p className="mt-10 max-w-3xl text-slate-800">
        {t("balance.accountHint")}{" "}
        <Link to={LINES_PATH} className={linkClass}>
          {t("balance.accountLink")}
        </Link>
      </p>
    </>
  );
}
