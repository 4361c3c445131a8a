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
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { QR_SIZE_PX, totpUri } from "~/auth/qr";
import { qrDataUrl } from "~/auth/qr.server";
import { setupTotpSchema } from "~/auth/schemas";
import { AuthCard } from "~/components/auth/form-parts";
import { Button, SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useHydrated } from "~/lib/use-hydrated";
import { getFixedT } from "~/i18n/i18n.server";
import { titleMeta } from "~/lib/meta";
import { resolveMode, submitSetupTotp } from "~/auth/setup-totp-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const mode = resolveMode(request, context);
  const issuer = getFixedT()("app.title");
  const qr = mode.secret
    ? await qrDataUrl(totpUri(issuer, mode.username, mode.secret), context.logger)
    : null;
  return {
    title: authT()("setupTotp.title"),
    kind: mode.kind,
    secret: mode.secret,
    qr,
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSetupTotp(context, request);
}

function CopySecret({ secret }: { secret: string }) {
  const { t } = useTranslation("auth");
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  return (
    <Button
      variant="quiet"
      onClick={() => {
        void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
      }}
    >
      {copied ? t("setupTotp.copied") : t("setupTotp.copy")}
    </Button>
  );
}

export default function SetupTotpPage() {
  const { t } = useTranslation("auth");
  const { kind, secret, qr } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setupTotpSchema() }),
  });
  const { field, summary } = labelFields(fields, {
    confirmation_code: t("fields.totp_code"),
  });

  if (!secret) {
    return (
      <AuthCard title={t("setupTotp.heading")} intro={t("setupTotp.startIntro")}>
        <Form method="post" className="space-y-4">
          <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} />
          <SubmitButton name="intent" value="start" pendingLabel={t("setupTotp.starting")}>
            {t("setupTotp.start")}
          </SubmitButton>
        </Form>
        <p className="mt-4 text-center">
          <Link to="/my-account" className="font-medium text-secondary underline">
            {t("common.backToAccount")}
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("setupTotp.heading")} intro={t(`setupTotp.intro.${kind}`)}>
      <ol className="mb-6 ml-5 list-decimal space-y-2 text-slate-800">
        <li>{t("setupTotp.stepInstall")}</li>
        <li>{t("setupTotp.stepScan")}</li>
        <li>{t("setupTotp.stepCode")}</li>
      </ol>
      {qr ? (
        <img
          src={qr}
          width={QR_SIZE_PX}
          height={QR_SIZE_PX}
          alt={t("setupTotp.qrAlt")}
          className="mx-auto mb-4 border border-slate-200"
          data-testid="totp-qr"
        />
      ) : (
        <p className="mb-4 text-error">{t("setupTotp.qrFailed")}</p>
      )}
      <div className="mb-6">
        <p className="mb-1 font-medium text-slate-900">{t("setupTotp.secretLabel")}</p>
        <div className="flex flex-wrap items-center gap-2">
          <code
            className="break-all rounded bg-slate-100 px-2 py-1 font-mono"
            data-testid="totp-secret"
          >
            {secret}
          </code>
          <CopySecret secret={secret} />
        </div>
      </div>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <input type="hidden" name="intent" value="verify" />
        <Field
          {...field.confirmation_code}
          autoComplete="one-time-code"
          inputMode="numeric"
          hint={t("hints.confirmation_code")}
        />
        <SubmitButton pendingLabel={t("setupTotp.pending")}>{t("setupTotp.submit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
