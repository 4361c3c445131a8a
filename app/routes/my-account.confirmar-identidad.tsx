import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
} from "react-router";
import { loadReauthentication, submitReauthentication } from "~/auth/reauth-request.server";
import { reauthenticationSchema } from "~/auth/schemas";
import { requireCustomer } from "~/auth/session.server";
import { AuthCard, HiddenRedirect } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

export function loader({ request, context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return loadReauthentication(context, requireCustomer(context, request), url);
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitReauthentication(context, request, requireCustomer(context, request));
}

/** The password typed again before a sensitive change; then back to what the customer was doing. */
export default function ReauthenticationPage() {
  const { t } = useTranslation("auth");
  const { email, redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<ReturnType<typeof reauthenticationSchema>>>({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reauthenticationSchema() }),
  });
  const { field, summary } = labelFields(fields, { password: t("fields.password") });
  return (
    <AuthCard title={t("reauth.heading")} intro={t("reauth.intro", { email })}>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <HiddenRedirect value={redirectTo} />
        <input type="hidden" name="username" value={email} autoComplete="username" />
        <Field {...field.password} type="password" autoComplete="current-password" />
        <SubmitButton pendingLabel={t("reauth.pending")}>{t("reauth.submit")}</SubmitButton>
      </Form>
      <Form method="post" className="mt-6">
        <p className="text-slate-700">{t("reauth.withoutPassword")}</p>
        <HiddenRedirect value={redirectTo} />
        <SubmitButton
          name="intent"
          value="sign-in-again"
          variant="link"
          pendingLabel={t("reauth.signingOut")}
        >
          {t("reauth.signInAgain")}
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
