import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isCognitoError } from "~/auth/cognito-error";
import {
  authT,
  cognitoErrorReply,
  continueSignIn,
  invalidReply,
  messageLimited,
  rateLimited,
  awaitSignUpCode,
} from "~/auth/flow.server";
import { configuredProviders } from "~/auth/oauth.server";
import { safeRedirectPath } from "~/auth/redirect";
import { signInSchema } from "~/auth/schemas";
import { getCustomer, readPending, setPending } from "~/auth/session.server";
import { authPath, signInNextStep } from "~/auth/steps";
import {
  AuthCard,
  AuthTabs,
  HiddenRedirect,
  SocialSignInLinks,
} from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { setFlash } from "~/lib/flash.server";
import { titleMeta } from "~/lib/meta";

/**
 * Nothing personal without the app's cookies: the page caches may keep it; and a function of its
 * loaders' data alone: the render memo may too (server/html-caches.ts).
 */
export const handle = { i18n: ["auth"], pageCache: true, renderMemo: true, query: ["redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

/** Spec §4: sign-in is refused while a customer is signed in; they are sent on instead. */
function refuseWhenSignedIn(request: Request, context: LoaderFunctionArgs["context"]) {
  if (!getCustomer(context)) return null;
  const target = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  setFlash(context, { kind: "info", key: "auth:errors.alreadySignedIn" });
  return redirect(target, { status: 303 });
}

export function loader({ request, context }: LoaderFunctionArgs) {
  const refused = refuseWhenSignedIn(request, context);
  if (refused) return refused;
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return {
    title: authT()("signIn.title"),
    redirectTo: redirectTo ? safeRedirectPath(redirectTo) : undefined,
    // The email of a sign-up just confirmed (or a reset just finished), to save typing it again.
    username: readPending(context)?.username ?? "",
    signUpEnabled: context.config.SIGN_UP_ENABLED,
    socialProviders: configuredProviders(context),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: signInSchema() });
  if (submission.status !== "success") {
    return invalidReply(submission, { hideFields: ["password"] });
  }
  const { username, password } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo);
  // Carried to the confirmation and reset views only when a page asked for it.
  const requested = submission.value.redirectTo ? redirectTo : undefined;
  if (getCustomer(context)) {
    setFlash(context, { kind: "info", key: "auth:errors.alreadySignedIn" });
    return redirect(redirectTo, { status: 303 });
  }
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;

  const { client } = context.identity;
  try {
    const response = await client.signIn(username, password);
    return await continueSignIn({ context, submission, response, username, redirectTo });
  } catch (error) {
    const next = isCognitoError(error) ? signInNextStep({ type: "error", name: error.code }) : null;
    if (next?.step === "CONFIRM_SIGN_UP") {
      // Cognito sent the code at sign-up; send a fresh one, as it may be long gone, unless this
      // address has had its share of codes (the last one still works).
      const delivery = (await messageLimited(context, submission, username))
        ? null
        : await client.resendConfirmationCode(username).catch(() => null);
      awaitSignUpCode(context, {
        username,
        redirectTo: requested,
        delivery: delivery?.CodeDeliveryDetails?.Destination
          ? {
              destination: delivery.CodeDeliveryDetails.Destination,
              medium: delivery.CodeDeliveryDetails.DeliveryMedium ?? "EMAIL",
            }
          : undefined,
      });
      setFlash(context, { kind: "info", key: "auth:flash.confirmSignUpFirst" });
      return redirect(authPath("confirm-sign-up"), { status: 303 });
    }
    if (next?.step === "RESET_PASSWORD") {
      const tooMany = await messageLimited(context, submission, username);
      if (tooMany) return tooMany;
      try {
        const sent = await client.forgotPassword(username);
        const destination = sent.CodeDeliveryDetails?.Destination;
        setPending(context, {
          username,
          redirectTo: requested,
          delivery: destination
            ? { destination, medium: sent.CodeDeliveryDetails?.DeliveryMedium ?? "EMAIL" }
            : undefined,
        });
        setFlash(context, { kind: "info", key: "auth:flash.passwordResetRequired" });
        return redirect(authPath("confirm-reset-password"), { status: 303 });
      } catch (resetError) {
        return cognitoErrorReply(context, submission, resetError, "ForgotPassword", username);
      }
    }
    return cognitoErrorReply(context, submission, error, "InitiateAuth", username);
  }
}

export default function SignInPage() {
  const { t } = useTranslation("auth");
  const { redirectTo, username, signUpEnabled, socialProviders } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { username },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema() }),
  });
  return (
    <>
      <AuthTabs active="sign-in" signUpEnabled={signUpEnabled} redirectTo={redirectTo} />
      <AuthCard title={t("signIn.heading")} intro={t("signIn.intro")}>
        <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
          <ErrorSummary
            refused={refusal(lastResult)}
            formErrors={form.errors}
            fields={[
              { meta: fields.username, label: t("fields.username") },
              { meta: fields.password, label: t("fields.password") },
            ]}
          />
          <HiddenRedirect value={redirectTo} />
          <Field
            meta={fields.username}
            label={t("fields.username")}
            type="email"
            autoComplete="username"
          />
          <Field
            meta={fields.password}
            label={t("fields.password")}
            type="password"
            autoComplete="current-password"
          />
          <SubmitButton pendingLabel={t("signIn.pending")}>{t("signIn.submit")}</SubmitButton>
        </Form>
        <p className="mt-4 text-center">
          <Link to={authPath("forgot-password")} className="font-medium text-secondary underline">
            {t("signIn.forgotPassword")}
          </Link>
        </p>
        <SocialSignInLinks providers={socialProviders} redirectTo={redirectTo} />
      </AuthCard>
    </>
  );
}
