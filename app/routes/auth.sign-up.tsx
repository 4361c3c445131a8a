import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import {
  authT,
  awaitSignUpCode,
  cognitoErrorReply,
  completeAutoSignIn,
  invalidReply,
  rateLimited,
  toSignInAfterConfirmation,
} from "~/auth/flow.server";
import { configuredProviders } from "~/auth/oauth.server";
import { safeRedirectPath } from "~/auth/redirect";
import {
  countryOptions,
  DEFAULT_COUNTRY,
  normalizePhoneNumber,
  PHONE_RULES,
} from "~/auth/countries";
import { signUpSchema } from "~/auth/schemas";
import { autoSignInWindow, getCustomer } from "~/auth/session.server";
import { authPath, signUpNextStep } from "~/auth/steps";
import {
  AuthCard,
  AuthTabs,
  HiddenRedirect,
  PasswordRules,
  SocialSignInLinks,
  confirmMatchWhileTyping,
} from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, SelectField } from "~/components/ui/form-field";
import { setFlash } from "~/lib/flash.server";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"], query: ["redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

/** Registration closed by the operator: the page does not exist. */
function refuseWhenClosed(context: LoaderFunctionArgs["context"]) {
  if (!context.config.SIGN_UP_ENABLED) throw data(null, { status: 404 });
}

export function loader({ request, context }: LoaderFunctionArgs) {
  refuseWhenClosed(context);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (getCustomer(context)) {
    setFlash(context, { kind: "info", key: "auth:errors.alreadySignedIn" });
    throw redirect(safeRedirectPath(redirectTo), { status: 303 });
  }
  return {
    title: authT()("signUp.title"),
    // Where the customer was going: after the code they land there, signed in.
    redirectTo: redirectTo ? safeRedirectPath(redirectTo) : undefined,
    policy: context.identity.passwordPolicy,
    // Named on the server only, so the HTML and the hydrated page show the same list.
    countries: countryOptions(),
    socialProviders: configuredProviders(context),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  refuseWhenClosed(context);
  const formData = await request.formData();
  const schema = signUpSchema(context.identity.passwordPolicy, PHONE_RULES);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return invalidReply(submission, { hideFields: ["password", "confirm_password"] });
  }
  const { username, password, country_code, phone_number } = submission.value;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  const attributes = [{ Name: "email", Value: username }];
  if (phone_number) {
    attributes.push({
      Name: "phone_number",
      Value: normalizePhoneNumber(country_code, phone_number),
    });
  }
  const redirectTo = submission.value.redirectTo
    ? safeRedirectPath(submission.value.redirectTo)
    : undefined;
  try {
    const result = await context.identity.client.signUp({ username, password, attributes });
    const next = signUpNextStep(result);
    if (next.step === "COMPLETE_AUTO_SIGN_IN") {
      return await completeAutoSignIn({
        context,
        submission,
        username,
        session: result.Session!,
        redirectTo,
      });
    }
    if (next.step === "DONE") {
      return toSignInAfterConfirmation(context, username, "auth:flash.signUpDone", redirectTo);
    }
    const destination = result.CodeDeliveryDetails?.Destination;
    awaitSignUpCode(context, {
      username,
      redirectTo,
      delivery: destination
        ? { destination, medium: result.CodeDeliveryDetails?.DeliveryMedium ?? "EMAIL" }
        : undefined,
      autoSignIn: autoSignInWindow(result.Session),
    });
    setFlash(context, { kind: "success", key: "auth:flash.signUpCodeSent" });
    return redirect(authPath(next.view), { status: 303 });
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "SignUp", username);
  }
}

export default function SignUpPage() {
  const { t } = useTranslation("auth");
  const { policy, countries, redirectTo, socialProviders } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { country_code: DEFAULT_COUNTRY },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: signUpSchema(policy, PHONE_RULES) }),
  });
  return (
    <>
      <AuthTabs active="sign-up" signUpEnabled redirectTo={redirectTo} />
      <AuthCard title={t("signUp.heading")} intro={t("signUp.intro")}>
        <Form
          method="post"
          id={form.id}
          onSubmit={form.onSubmit}
          onInput={confirmMatchWhileTyping(form)}
          noValidate
          className="space-y-4"
        >
          <ErrorSummary
            refused={refusal(lastResult)}
            formErrors={form.errors}
            fields={[
              { meta: fields.username, label: t("fields.username") },
              { meta: fields.password, label: t("fields.password") },
              { meta: fields.confirm_password, label: t("fields.confirm_password") },
              { meta: fields.country_code, label: t("fields.country_code") },
              { meta: fields.phone_number, label: t("fields.phone_number") },
            ]}
          />
          <HiddenRedirect value={redirectTo} />
          <Field
            meta={fields.username}
            label={t("fields.username")}
            type="email"
            autoComplete="email"
          />
          <Field
            meta={fields.password}
            label={t("fields.password")}
            type="password"
            autoComplete="new-password"
          />
          <PasswordRules policy={policy} />
          <Field
            meta={fields.confirm_password}
            label={t("fields.confirm_password")}
            type="password"
            autoComplete="new-password"
          />
          {/* On a phone the country and the number stack: each gets the whole width. */}
          <fieldset className="min-w-0">
            <legend className="mb-1 font-semibold text-slate-900">
              {t("fields.phone_legend")}
            </legend>
            <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
              <SelectField
                meta={fields.country_code}
                label={t("fields.country_code")}
                autoComplete="tel-country-code"
                options={countries.map((country) => ({
                  value: country.value,
                  label: t("dialCodeOption", { country: country.name, code: country.callingCode }),
                }))}
              />
              <Field
                meta={fields.phone_number}
                label={t("fields.phone_number")}
                type="tel"
                autoComplete="tel-national"
                inputMode="tel"
                hint={t("hints.phone_number")}
              />
            </div>
          </fieldset>
          <SubmitButton pendingLabel={t("signUp.pending")}>{t("signUp.submit")}</SubmitButton>
        </Form>
        <SocialSignInLinks providers={socialProviders} redirectTo={redirectTo} />
      </AuthCard>
    </>
  );
}
