import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isCognitoError } from "~/auth/cognito-error";
import { mapCognitoError } from "~/auth/errors";
import {
  authT,
  awaitSignUpCode,
  cognitoErrorReply,
  completeAutoSignIn,
  invalidReply,
  messageLimited,
  rateLimited,
  toSignInAfterConfirmation,
} from "~/auth/flow.server";
import { confirmSignUpFormSchema } from "~/auth/schemas";
import { openAutoSignIn, readPending } from "~/auth/session.server";
import { authPath } from "~/auth/steps";
import { maskDestination } from "~/auth/tokens";
import { AuthCard } from "~/components/auth/form-parts";
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
  const pending = readPending(context);
  return {
    title: authT()("confirmSignUp.title"),
    username: pending?.username ?? "",
    destination: pending?.delivery ? maskDestination(pending.delivery.destination) : null,
  };
}

/** Confirmed (now or before) without signing in: sign-in with the email filled in. */
function toSignIn(context: ActionFunctionArgs["context"], username: string, key: string) {
  return toSignInAfterConfirmation(context, username, key, readPending(context)?.redirectTo);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: confirmSignUpFormSchema(intent) });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["confirmation_code"] });
  const { username } = submission.value;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  const { client } = context.identity;

  if (intent === "resend") {
    const tooMany = await messageLimited(context, submission, username);
    if (tooMany) return tooMany;
    try {
      const sent = await client.resendConfirmationCode(username);
      const destination = sent.CodeDeliveryDetails?.Destination;
      const pending = readPending(context);
      const sameAccount = pending?.username.toLowerCase() === username.toLowerCase();
      awaitSignUpCode(context, {
        username,
        redirectTo: pending?.redirectTo,
        // A new code does not reopen the automatic sign-in window: Cognito's session is the same.
        autoSignIn: sameAccount ? pending?.autoSignIn : undefined,
        delivery: destination
          ? { destination, medium: sent.CodeDeliveryDetails?.DeliveryMedium ?? "EMAIL" }
          : undefined,
      });
      setFlash(context, { kind: "success", key: "auth:flash.codeResent" });
      return redirect(authPath("confirm-sign-up"), { status: 303 });
    } catch (error) {
      // Spec §4: "User is already confirmed." on resend counts as success.
      if (
        isCognitoError(error) &&
        mapCognitoError(error.code, error.message, "ResendConfirmationCode").key ===
          "alreadyConfirmed"
      ) {
        return toSignIn(context, username, "auth:flash.alreadyConfirmed");
      }
      return cognitoErrorReply(context, submission, error, "ResendConfirmationCode", username);
    }
  }

  const { confirmation_code: code } = submission.value as { confirmation_code?: string };
  if (!code) return invalidReply(submission);
  const pending = readPending(context);
  const session = openAutoSignIn(pending, username);
  try {
    const confirmed = await client.confirmSignUp(username, code, session ?? undefined);
    if (confirmed.Session) {
      return await completeAutoSignIn({
        context,
        submission,
        username,
        session: confirmed.Session,
        redirectTo: pending?.redirectTo,
      });
    }
    // This browser signed up, but the window closed before the code came back (spec).
    const offered =
      pending?.autoSignIn && pending.username.toLowerCase() === username.toLowerCase();
    return toSignIn(
      context,
      username,
      offered ? "auth:flash.notConfirmedOnTime" : "auth:flash.signUpConfirmed",
    );
  } catch (error) {
    if (
      isCognitoError(error) &&
      mapCognitoError(error.code, error.message, "ConfirmSignUp").key === "alreadyConfirmed"
    ) {
      return toSignIn(context, username, "auth:flash.alreadyConfirmed");
    }
    return cognitoErrorReply(context, submission, error, "ConfirmSignUp", username);
  }
}

export default function ConfirmSignUpPage() {
  const { t } = useTranslation("auth");
  const { username, destination } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<{ username: string; confirmation_code?: string }>({
    lastResult,
    defaultValue: { username },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: confirmSignUpFormSchema(formData.get("intent")) }),
  });
  const { field, summary } = labelFields(fields, {
    username: t("fields.username"),
    confirmation_code: t("fields.confirmation_code"),
  });
  return (
    <AuthCard
      title={t("confirmSignUp.heading")}
      intro={destination ? t("confirmSignUp.introSent", { destination }) : t("confirmSignUp.intro")}
    >
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <Field {...field.username} type="email" autoComplete="username" />
        <Field
          {...field.confirmation_code}
          autoComplete="one-time-code"
          inputMode="numeric"
          hint={t("hints.confirmation_code")}
        />
        <div className="flex flex-col gap-3">
          <SubmitButton name="intent" value="confirm" pendingLabel={t("confirmSignUp.pending")}>
            {t("confirmSignUp.submit")}
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
    </AuthCard>
  );
}
