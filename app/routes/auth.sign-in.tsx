import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { configuredProviders } from "~/auth/oauth.server";
import { safeRedirectPath } from "~/auth/redirect";
import { signInSchema, usernameAndRedirectSchema } from "~/auth/schemas";
import { readPending } from "~/auth/session.server";
import { authPath } from "~/auth/steps";
import {
  AuthCard,
  AuthTabs,
  HiddenRedirect,
  SocialSignInLinks,
} from "~/components/auth/form-parts";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { refuseWhenSignedIn } from "~/auth/sign-in-request.server";
import { signInAction } from "~/auth/select-first-factor-request.server";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { requestContext } from "~/lib/router-context.server";

/**
 * Nothing personal without the app's cookies: the page caches may keep it; and a function of its
 * loaders' data alone: the render memo may too (server/html-caches.ts).
 */
export const handle = { i18n: ["auth"], pageCache: true, renderMemo: true, query: ["redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const refused = refuseWhenSignedIn(context, url.searchParams.get("redirectTo"));
  if (refused) return refused;
  const redirectTo = url.searchParams.get("redirectTo");
  return {
    title: authT()("signIn.title"),
    redirectTo: redirectTo ? safeRedirectPath(redirectTo) : undefined,
    // The email of a sign-up just confirmed (or a reset just finished), to save typing it again.
    username: readPending(context)?.username ?? "",
    signUpEnabled: context.config.SIGN_UP_ENABLED,
    socialProviders: configuredProviders(context),
    passkeysEnabled: context.config.PASSKEYS_ENABLED,
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return signInAction(context, request);
}

export default function SignInPage() {
  const { t } = useTranslation("auth");
  const { redirectTo, username, signUpEnabled, socialProviders, passkeysEnabled } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The passkey ceremony's answer goes to its own fetcher, never to this form.
  const lastResult =
    actionData && !("passkeyRequestOptions" in actionData) ? actionData : undefined;
  const [form, fields] = useForm<z.input<ReturnType<typeof signInSchema>>>({
    lastResult,
    defaultValue: { username },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        // "Otras formas de entrar" needs only the e-mail: the password may be one of the choices.
        schema:
          formData.get("intent") === "other-ways"
            ? (usernameAndRedirectSchema() as unknown as ReturnType<typeof signInSchema>)
            : signInSchema(),
      }),
  });
  const { field, summary } = labelFields(fields, {
    username: t("fields.username"),
    password: t("fields.password"),
  });
  return (
    <>
      <AuthTabs active="sign-in" signUpEnabled={signUpEnabled} redirectTo={redirectTo} />
      <AuthCard title={t("signIn.heading")} intro={t("signIn.intro")}>
        <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
          <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
          <HiddenRedirect value={redirectTo} />
          <Field {...field.username} type="email" autoComplete="username" />
          <Field {...field.password} type="password" autoComplete="current-password" />
          <SubmitButton pendingLabel={t("signIn.pending")}>{t("signIn.submit")}</SubmitButton>
          {passkeysEnabled ? (
            <>
              <PasskeyButton
                ceremony="get"
                label={t("passkeys.signIn")}
                pendingLabel={t("passkeys.signingIn")}
                fields={(button) => {
                  const typed = button.form?.elements.namedItem("username");
                  const value = typed instanceof HTMLInputElement ? typed.value.trim() : "";
                  return value ? { username: value, redirectTo: redirectTo ?? "" } : null;
                }}
              />
              <button
                type="submit"
                name="intent"
                value="other-ways"
                formNoValidate
                className={buttonClass({ variant: "link", width: "block" })}
              >
                {t("signIn.otherWays")}
              </button>
            </>
          ) : null}
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
