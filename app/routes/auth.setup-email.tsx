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
import { setupEmailSchema } from "~/auth/schemas";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { pendingSetup, submitSetupEmail } from "~/auth/setup-email-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const pending = pendingSetup(context);
  return { title: authT()("setupEmail.title"), email: pending.username };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSetupEmail(context, request);
}

export default function SetupEmailPage() {
  const { t } = useTranslation("auth");
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { email },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setupEmailSchema() }),
  });
  const { field, summary } = labelFields(fields, {
    email: t("fields.email"),
  });
  return (
    <AuthCard title={t("setupEmail.heading")} intro={t("setupEmail.intro")}>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <Field {...field.email} type="email" autoComplete="email" />
        <SubmitButton pendingLabel={t("setupEmail.pending")}>{t("setupEmail.submit")}</SubmitButton>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}
