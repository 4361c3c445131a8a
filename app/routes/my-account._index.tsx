import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { INVOICING_PATH } from "~/invoicing/paths";
import { SAVED_CARDS_PATH } from "~/payments/paths";
import { useTranslation } from "~/i18n/react";
import { mfaPreferenceSchema } from "~/auth/schemas";
import { asOrderOwner } from "~/auth/email-trust.server";
import { requireCustomer } from "~/auth/session.server";
import { authPath, parseMfaTypes } from "~/auth/steps";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { labelFields } from "~/components/ui/labelled-fields";
import { AccountHistorySection } from "~/components/account/account-history";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { titleMeta } from "~/lib/meta";
import { loadAccountHistory } from "~/account/history.server";
import { accountMfaSettings, submitMfaPreference } from "~/auth/mfa-preference-request.server";
import { AccountLinesSection } from "~/components/line/line-card";
import { loadAccountLines } from "~/line/line-pages.server";
import { requestContext } from "~/lib/router-context.server";

/** A function of its loaders' data alone: the render memo may keep it (server/html-caches.ts). */
export const handle = { i18n: ["auth", "topup", "line", "portability"], renderMemo: true };
export const meta = titleMeta;

export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer, accessToken } = requireCustomer(context, request);
  const title = getFixedT()("pages.myAccount.title");
  const [history, lines] = await Promise.all([
    loadAccountHistory(context.db, asOrderOwner(context, customer)),
    loadAccountLines(context, customer),
  ]);
  // The e-mail and its verification come from the ID token, the MFA settings from the session.
  const mfa = await accountMfaSettings(context, accessToken);
  return {
    title,
    lines,
    history,
    // Unreachable service and nothing kept: the MFA part cannot be shown; the session stays.
    available: Boolean(mfa),
    email: customer.email,
    emailVerified: customer.emailVerified,
    enabledMfa: parseMfaTypes(JSON.stringify(mfa?.enabled ?? [])),
    preferredMfa: parseMfaTypes(JSON.stringify([mfa?.preferred]))[0] ?? null,
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { accessToken } = requireCustomer(context, request);
  return submitMfaPreference(context, request, accessToken);
}

export default function AccountOverviewPage() {
  const { t } = useTranslation("auth");
  const { available, email, emailVerified, enabledMfa, preferredMfa, history, lines } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { mfa_type: preferredMfa ?? "NONE" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: mfaPreferenceSchema() }),
  });
  const { field, summary } = labelFields(fields, {
    mfa_type: t("auth:account.preferredLegend"),
  });
  const totpOn = enabledMfa.includes("TOTP");
  return (
    <>
      <PageHeader title={t("common:pages.myAccount.heading")} />
      <AccountLinesSection lines={lines} />
      {!available ? (
        <p
          role="status"
          className="mb-6 rounded border-l-4 border-error bg-error-soft px-4 py-3 text-error"
        >
          {t("auth:account.unavailable")}
        </p>
      ) : null}
      <div className="grid gap-6 md:grid-cols-2">
        <section
          className="rounded-lg border border-slate-200 p-6 md:col-span-2"
          aria-labelledby="account-invoicing"
        >
          <h2 id="account-invoicing" className="text-xl font-bold">
            {t("common:invoicing.accountHeading")}
          </h2>
          <p className="mt-2 text-slate-800">{t("common:invoicing.accountLead")}</p>
          <Link
            to={INVOICING_PATH}
            className="mt-3 inline-block font-medium text-secondary underline underline-offset-4"
            data-testid="account-invoicing-link"
          >
            {t("common:invoicing.accountLink")}
          </Link>
        </section>
        <section
          className="rounded-lg border border-slate-200 p-6"
          aria-labelledby="account-details"
        >
          <h2 id="account-details" className="text-xl font-bold">
            {t("auth:account.detailsHeading")}
          </h2>
          <dl className="mt-4 space-y-3">
            <div>
              <dt className="text-sm font-medium text-slate-700">{t("auth:account.email")}</dt>
              <dd className="font-semibold" data-testid="account-email">
                {email}
              </dd>
            </div>
            <div>
              <dt className="text-sm font-medium text-slate-700">
                {t("auth:account.emailStatus")}
              </dt>
              <dd data-testid="account-email-verified">
                {emailVerified ? t("auth:account.verified") : t("auth:account.notVerified")}
                {!emailVerified && available ? (
                  <>
                    {" "}
                    <Link
                      to={`${authPath("verify-user")}?redirectTo=${encodeURIComponent("/my-account")}`}
                      className="font-medium text-secondary underline"
                    >
                      {t("auth:account.verifyNow")}
                    </Link>
                  </>
                ) : null}
              </dd>
            </div>
          </dl>
          <p className="mt-4">
            <Link
              to={SAVED_CARDS_PATH}
              className="font-medium text-secondary underline underline-offset-4"
            >
              {t("auth:account.savedCards")}
            </Link>
          </p>
          <Form method="post" action="/auth/sign-out" className="mt-6">
            <SubmitButton variant="outline" pendingLabel={t("auth:account.signingOut")}>
              {t("auth:account.signOut")}
            </SubmitButton>
          </Form>
        </section>
        <section className="rounded-lg border border-slate-200 p-6" aria-labelledby="account-mfa">
          <h2 id="account-mfa" className="text-xl font-bold">
            {t("auth:account.mfaHeading")}
          </h2>
          <p className="mt-2" data-testid="account-mfa-status">
            {enabledMfa.length
              ? t("auth:account.mfaOn", {
                  methods: enabledMfa.map((type) => t(`auth:mfaTypes.${type}.label`)).join(", "),
                })
              : t("auth:account.mfaOff")}
          </p>
          {preferredMfa ? (
            <p className="mt-1 text-slate-700" data-testid="account-mfa-preferred">
              {t("auth:account.mfaPreferred", { method: t(`auth:mfaTypes.${preferredMfa}.label`) })}
            </p>
          ) : null}
          {available ? (
            <Form method="post" action={authPath("setup-totp")} className="mt-4">
              <SubmitButton name="intent" value="start" pendingLabel={t("auth:setupTotp.starting")}>
                {totpOn ? t("auth:account.totpReconfigure") : t("auth:account.totpSetup")}
              </SubmitButton>
            </Form>
          ) : null}
          <p className="mt-4">
            <Link to="/my-account/seguridad" className="font-medium text-secondary underline">
              {t("auth:security.link")}
            </Link>
          </p>
          {enabledMfa.length ? (
            <Form
              method="post"
              id={form.id}
              onSubmit={form.onSubmit}
              noValidate
              className="mt-6 space-y-4"
            >
              <ErrorSummary
                refused={refusal(lastResult)}
                formErrors={form.errors}
                fields={summary}
              />
              <ChoiceGroup
                legendSize="label"
                {...field.mfa_type}
                choices={[
                  ...enabledMfa.map((type) => ({
                    value: type,
                    label: t(`auth:mfaTypes.${type}.label`),
                  })),
                  { value: "NONE", label: t("auth:account.mfaNone") },
                ]}
              />
              <SubmitButton variant="outline" pendingLabel={t("auth:account.saving")}>
                {t("auth:account.savePreference")}
              </SubmitButton>
            </Form>
          ) : null}
        </section>
      </div>
      <AccountHistorySection history={history} />
    </>
  );
}
