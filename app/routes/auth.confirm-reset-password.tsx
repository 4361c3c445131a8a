import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { confirmResetPasswordFormSchema } from "~/auth/schemas";
import { readPending } from "~/auth/session.server";
import { maskDestination } from "~/auth/tokens";
import {
  AuthCard,
  BackToSignIn,
  PasswordRules,
  confirmMatchWhileTyping,
} from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { submitConfirmResetPassword } from "~/auth/confirm-reset-password-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const pending = readPending(context);
  return {
    title: authT()("confirmResetPassword.title"),
    username: pending?.username ?? "",
    destination: pending?.delivery ? maskDestination(pending.delivery.destination) : null,
    policy: context.identity.passwordPolicy,
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitConfirmResetPassword(context, request);
}

export default function ConfirmResetPasswordPage() {
  const { t } = useTranslation("auth");
  const { username, destination, policy } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { username },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: confirmResetPasswordFormSchema(formData.get("intent"), policy),
      }),
  });
  const { field, summary } = labelFields(fields, {
    username: t("fields.username"),
    confirmation_code: t("fields.confirmation_code"),
    password: t("fields.new_password"),
    confirm_password: t("fields.confirm_password"),
  });
  return (
    <AuthCard
      title={t("confirmResetPassword.heading")}
      intro={
        destination
          ? t("confirmResetPassword.introSent", { destination })
          : t("confirmResetPassword.intro")
      }
    >
      <Form
        method="post"
        id={form.id}
        onSubmit={form.onSubmit}
        onInput={confirmMatchWhileTyping(form)}
        noValidate
        className="space-y-4"
      >
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <Field {...field.username} type="email" autoComplete="username" />
        <Field
          {...field.confirmation_code}
          autoComplete="one-time-code"
          inputMode="numeric"
          hint={t("hints.confirmation_code")}
        />
        <Field {...field.password} type="password" autoComplete="new-password" />
        <PasswordRules policy={policy} />
        <Field {...field.confirm_password} type="password" autoComplete="new-password" />
        <div className="flex flex-col gap-3">
          <SubmitButton
            name="intent"
            value="confirm"
            pendingLabel={t("confirmResetPassword.pending")}
          >
            {t("confirmResetPassword.submit")}
          </SubmitButton>
          <SubmitButton
            name="intent"
            value="resend"
            variant="outline"
            pendingLabel={t("common.resending")}
          >
            {t("common.resendCode")}
          </SubmitButton>
        </div>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}
