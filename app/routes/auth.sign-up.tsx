import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { configuredProviders } from "~/auth/oauth.server";
import { safeRedirectPath } from "~/auth/redirect";
import { countryOptions, DEFAULT_COUNTRY, PHONE_RULES } from "~/auth/countries";
import { signUpSchema } from "~/auth/schemas";
import { getCustomer } from "~/auth/session.server";
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
import { labelFields } from "~/components/ui/labelled-fields";
import { setFlash } from "~/lib/flash.server";
import { titleMeta } from "~/lib/meta";
import { refuseWhenClosed, submitSignUp } from "~/auth/sign-up-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"], query: ["redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  refuseWhenClosed(context);
  const redirectTo = url.searchParams.get("redirectTo");
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

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSignUp(context, request);
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
  const { field, summary } = labelFields(fields, {
    username: t("fields.username"),
    password: t("fields.password"),
    confirm_password: t("fields.confirm_password"),
    country_code: t("fields.country_code"),
    phone_number: t("fields.phone_number"),
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
          <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
          <HiddenRedirect value={redirectTo} />
          <Field {...field.username} type="email" autoComplete="email" />
          <Field {...field.password} type="password" autoComplete="new-password" />
          <PasswordRules policy={policy} />
          <Field {...field.confirm_password} type="password" autoComplete="new-password" />
          {/* On a phone the country and the number stack: each gets the whole width. */}
          <fieldset className="min-w-0">
            <legend className="mb-1 font-semibold text-slate-900">
              {t("fields.phone_legend")}
            </legend>
            <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
              <SelectField
                {...field.country_code}
                autoComplete="tel-country-code"
                options={countries.map((country) => ({
                  value: country.value,
                  label: t("dialCodeOption", { country: country.name, code: country.callingCode }),
                }))}
              />
              <Field
                {...field.phone_number}
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
