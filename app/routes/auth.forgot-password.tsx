import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isCognitoError } from "~/auth/cognito-error";
import { answersAsCodeSent } from "~/auth/errors";
import {
  authT,
  cognitoErrorReply,
  invalidReply,
  messageLimited,
  rateLimited,
} from "~/auth/flow.server";
import { usernameOnlySchema } from "~/auth/schemas";
import { readPending, setPending } from "~/auth/session.server";
import { authPath, resetPasswordNextStep } from "~/auth/steps";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { setFlash } from "~/lib/flash.server";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context }: LoaderFunctionArgs) {
  return {
    title: authT()("forgotPassword.title"),
    username: readPending(context)?.username ?? "",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: usernameOnlySchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const { username } = submission.value;
  const limited =
    (await rateLimited(context, submission, username)) ??
    (await messageLimited(context, submission, username));
  if (limited) return limited;
  try {
    await context.identity.client.forgotPassword(username);
  } catch (error) {
    if (!isCognitoError(error) || !answersAsCodeSent(error.code, error.message)) {
      return cognitoErrorReply(context, submission, error, "ForgotPassword", username);
    }
  }
  // The same answer for every address: the one typed, masked, whether it has an account or not.
  setPending(context, { username, delivery: { destination: username, medium: "EMAIL" } });
  setFlash(context, { kind: "success", key: "auth:flash.resetCodeSent" });
  return redirect(authPath(resetPasswordNextStep("code-sent").view), { status: 303 });
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
