import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { requirePending, respondToChallenge } from "~/auth/challenge.server";
import { authT, invalidReply, rateLimited } from "~/auth/flow.server";
import { setupEmailSchema } from "~/auth/schemas";
import { CHALLENGE, setupMfaTypes } from "~/auth/steps";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

function pendingSetup(context: LoaderFunctionArgs["context"]) {
  return requirePending(
    context,
    (pending) =>
      pending.challengeName === CHALLENGE.setup &&
      setupMfaTypes(pending.parameters).includes("EMAIL"),
  );
}

export function loader({ context }: LoaderFunctionArgs) {
  const pending = pendingSetup(context);
  return { title: authT()("setupEmail.title"), email: pending.username };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const pending = pendingSetup(context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: setupEmailSchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  // Cognito sends a code to this address and answers with the EMAIL_OTP challenge.
  return respondToChallenge({
    context,
    submission,
    pending,
    responses: { EMAIL: submission.value.email },
  });
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
