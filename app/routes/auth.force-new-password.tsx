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
import {
  forceNewPasswordSchema,
  requiredAttributeLabel,
  requiredAttributesOf,
} from "~/auth/schemas";
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
import { pendingChallenge, submitForceNewPassword } from "~/auth/force-new-password-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const pending = pendingChallenge(context);
  return {
    title: authT()("forceNewPassword.title"),
    policy: context.identity.passwordPolicy,
    attributes: requiredAttributesOf(pending.parameters?.requiredAttributes),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitForceNewPassword(context, request);
}

export default function ForceNewPasswordPage() {
  const { t } = useTranslation("auth");
  const { policy, attributes } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<Record<string, string>>({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: forceNewPasswordSchema(policy, attributes),
      }),
  });
  // The new password, then the attributes the pool requires and the account lacks.
  const labels: Record<string, string> = {
    password: t("fields.new_password"),
    confirm_password: t("fields.confirm_password"),
    ...Object.fromEntries(attributes.map((name) => [name, requiredAttributeLabel(t, name)])),
  };
  const { field, summary } = labelFields(fields, labels);
  return (
    <AuthCard title={t("forceNewPassword.heading")} intro={t("forceNewPassword.intro")}>
      <Form
        method="post"
        id={form.id}
        onSubmit={form.onSubmit}
        onInput={confirmMatchWhileTyping(form)}
        noValidate
        className="space-y-4"
      >
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <Field {...field.password} type="password" autoComplete="new-password" />
        <PasswordRules policy={policy} />
        <Field {...field.confirm_password} type="password" autoComplete="new-password" />
        {attributes.map((name) => (
          <Field
            key={name}
            {...field[name]}
            type={name === "phone_number" ? "tel" : "text"}
            hint={name === "birthdate" ? t("hints.birthdate") : undefined}
          />
        ))}
        <SubmitButton pendingLabel={t("forceNewPassword.pending")}>
          {t("forceNewPassword.submit")}
        </SubmitButton>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}
