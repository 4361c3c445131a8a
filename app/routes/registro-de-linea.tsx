import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import { LineCodeForm, LineNumberForm } from "~/components/line/line-code-forms";
import { HolderForm } from "~/components/registration/holder-form";
import {
  InPersonView,
  OtherNumberButton,
  RegistrationReceiptView,
} from "~/components/registration/registration-views";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { shareMeta } from "~/lib/meta";
import { formatLineNumber } from "~/line/line-view";
import {
  loadRegistrationPage,
  submitRegistration,
} from "~/registration/registration-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["registration", "line"], query: ["tipo"] };

export const meta = shareMeta;

export { headers } from "~/lib/route-headers";

/**
 * The registration of a line already in use to its holder (issue 27): the number, the code sent
 * to it by SMS, then the holder; the folio once registered. Anyone who proves the number may
 * register it; a signed-in customer's account is kept with the registration.
 */
export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return loadRegistrationPage(context, url);
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitRegistration(context, request, getCustomer(context)?.sub ?? null);
}

export default function LineRegistrationPage() {
  const { step, number, kind, codeKey, holderFormKey, receipt, countries } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("registration");
  const ended =
    step === "in-person" ||
    (answer?.form === "holder" && "ended" in answer && answer.ended === true);
  return (
    <>
      <PageHeader title={t("page.heading")}>
        {step === "registered" ? null : t("page.intro")}
      </PageHeader>
      {step === "registered" && receipt ? <RegistrationReceiptView receipt={receipt} /> : null}
      {ended ? (
        <InPersonView result={answer?.form === "holder" ? answer.result : undefined} />
      ) : null}
      {step === "holder" && number && !ended ? (
        <>
          <HolderForm
            kind={kind}
            number={formatLineNumber(number)}
            idempotencyKey={holderFormKey}
            lastResult={answer?.form === "holder" ? answer.result : undefined}
            countries={countries}
          />
          <OtherNumberButton label={t("page.other")} />
        </>
      ) : null}
      {step === "code" && number ? (
        <>
          <LineCodeForm
            idempotencyKey={codeKey}
            codeHint={t("page.code_hint")}
            lastResult={answer?.form === "code" ? answer.result : undefined}
            number={number}
            sendNumber={false}
            lead={t("page.codeSent", { number: formatLineNumber(number) })}
            submitLabel={t("page.codeSubmit")}
            pendingLabel={t("line:add.confirming")}
          />
          <OtherNumberButton label={t("page.other")} />
        </>
      ) : null}
      {step === "number" ? (
        <LineNumberForm
          idempotencyKey={codeKey}
          lastResult={answer?.form === "number" ? answer.result : undefined}
          submitLabel={t("page.numberSubmit")}
          pendingLabel={t("line:add.submitting")}
        />
      ) : null}
    </>
  );
}
