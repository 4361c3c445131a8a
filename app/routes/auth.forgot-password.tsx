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
import { usernameOnlySchema } from "~/auth/schemas";
import { readPending } from "~/auth/session.server";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { submitForgotPassword } from "~/auth/forgot-password-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return {
    title: authT()("forgotPassword.title"),
    username: readPending(context)?.username ?? "",
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitForgotPassword(context, request);
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation("auth");
  const { username } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { username },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: usernameOnlySchema() }),
  });
  const { field, summary } = labelFields(fields, {
    username: t("fields.username"),
  });
  return (
    <AuthCard title={t("forgotPassword.heading")} intro={t("forgotPassword.intro")}>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <Field {...field.username} type="email" autoComplete="username" />
        <SubmitButton pendingLabel={t("forgotPassword.pending")}>
          {t("forgotPassword.submit")}
        </SubmitButton>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}
