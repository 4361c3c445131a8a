import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { signInPathFor } from "~/auth/redirect";
import { getCustomer } from "~/auth/session.server";
import {
  isSettling,
  LineActivationState,
  useRefreshWhileActivating,
} from "~/components/activation/line-activation";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { simActivationSchema } from "~/line/sim-activation-schema";
import { SIM_ACTIVATION_PATH } from "~/line/paths";
import { loadSimActivationPage, submitSimActivation } from "~/line/sim-activation-request.server";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["activation"] };

export const meta = titleMeta;

/**
 * A physical SIM's activation: the customer types the ICCID printed on it, and this browser then
 * follows the activation until the line's number shows. Signed in or not.
 */
export async function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return {
    title: getFixedT("activation")("page.title"),
    ...(await loadSimActivationPage(context, getCustomer(context))),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSimActivation(context, request, getCustomer(context));
}

export default function SimActivationPage() {
  const { signedIn, started } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("activation");
  const [form, fields] = useForm({
    lastResult: answer?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: simActivationSchema }),
  });
  const { field, summary } = labelFields(fields, { iccid: t("form.iccid") });
  useRefreshWhileActivating(started.some((activation) => isSettling(activation.line)));

  return (
    <>
      <PageHeader title={t("page.heading")}>{t("page.intro")}</PageHeader>
      {started.length > 0 ? (
        <section
          aria-labelledby="started-heading"
          className="mb-8 max-w-xl rounded-lg border border-primary bg-white p-5"
          data-testid="started-activations"
        >
          <h2 id="started-heading" className="text-xl font-bold text-slate-900">
            {t("started.heading")}
          </h2>
          <ul className="mt-3 space-y-4">
            {started.map((activation) => (
              <li key={activation.key} data-testid="started-activation">
                <p className="text-sm text-slate-700">
                  {activation.planName
                    ? t("started.plan", { plan: activation.planName })
                    : t("started.sim")}
                </p>
                <LineActivationState line={activation.line} refreshTo={SIM_ACTIVATION_PATH} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mb-6 max-w-xl space-y-4">
        <ErrorSummary
          refused={refusal(answer?.result)}
          formErrors={form.errors}
          heading="activation:form.errorSummary"
          fields={summary}
        />
        <Field {...field.iccid} hint={t("form.iccidHint")} inputMode="numeric" autoComplete="off" />
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("form.submitting")}>
          {t("form.submit")}
        </SubmitButton>
      </Form>
      <p className="max-w-xl text-slate-700">
        {signedIn ? (
          t("page.signedInHint")
        ) : (
          <>
            {t("page.guestHint")}{" "}
            <Link
              to={signInPathFor(SIM_ACTIVATION_PATH)}
              className="font-medium text-secondary underline underline-offset-4"
            >
              {t("page.signIn")}
            </Link>
          </>
        )}
      </p>
      <p className="mt-3 max-w-xl text-slate-700">
        <Link to="/help-center" className="font-medium text-secondary underline underline-offset-4">
          {t("page.help")}
        </Link>
      </p>
    </>
  );
}
