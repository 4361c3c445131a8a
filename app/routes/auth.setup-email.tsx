import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isCognitoError } from "~/auth/cognito.server";
import { mapCognitoError } from "~/auth/errors";
import {
  authT,
  cognitoErrorReply,
  continueSignIn,
  invalidReply,
  rateLimited,
  signInStateExpired,
} from "~/auth/flow.server";
import { setupEmailSchema, type Translate } from "~/auth/schemas";
import { readPending } from "~/auth/session.server";
import { authPath, CHALLENGE, setupMfaTypes } from "~/auth/steps";
import { AuthCard, Field, FormAlert, SubmitButton } from "~/components/auth/form-parts";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

function pendingSetup(context: LoaderFunctionArgs["context"]) {
  const pending = readPending(context);
  if (
    pending?.challengeName !== CHALLENGE.setup ||
    !pending.session ||
    !setupMfaTypes(pending.parameters).includes("EMAIL")
  ) {
    throw signInStateExpired(context);
  }
  return { ...pending, session: pending.session };
}

export function loader({ context }: LoaderFunctionArgs) {
  const pending = pendingSetup(context);
  return { title: authT()("setupEmail.title"), email: pending.username };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const pending = pendingSetup(context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: setupEmailSchema(authT() as Translate) });
  if (submission.status !== "success") return invalidReply(submission);
  const limited = rateLimited(context, submission, pending.username);
  if (limited) return limited;
  try {
    // Cognito sends a code to this address and answers with the EMAIL_OTP challenge.
    const response = await context.identity.client.respondToChallenge({
      challengeName: CHALLENGE.setup,
      session: pending.session,
      responses: {
        USERNAME: pending.userIdForSrp ?? pending.username,
        EMAIL: submission.value.email,
      },
    });
    return await continueSignIn({
      context,
      submission,
      response,
      username: pending.username,
      redirectTo: pending.redirectTo ?? "",
      previous: pending,
    });
  } catch (error) {
    if (
      isCognitoError(error) &&
      mapCognitoError(error.code, error.message, "RespondToAuthChallenge").key ===
        "signInStateExpired"
    ) {
      return signInStateExpired(context, pending.redirectTo);
    }
    return cognitoErrorReply(context, submission, error, "RespondToAuthChallenge");
  }
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
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: setupEmailSchema(t as Translate) }),
  });
  return (
    <AuthCard title={t("setupEmail.heading")} intro={t("setupEmail.intro")}>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate>
        <Field meta={fields.email} label={t("fields.email")} type="email" autoComplete="email" />
        <FormAlert errors={form.errors} />
        <SubmitButton pendingLabel={t("setupEmail.pending")}>{t("setupEmail.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-center">
        <Link to={authPath("sign-in")} className="font-medium text-secondary underline">
          {t("common.backToSignIn")}
        </Link>
      </p>
    </AuthCard>
  );
}
