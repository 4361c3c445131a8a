import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { confirmSignInSchema } from "~/auth/schemas";
import { CHALLENGE } from "~/auth/steps";
import { maskDestination } from "~/auth/tokens";
import { AuthCard, BackToSignIn } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import {
  offersRememberDevice,
  pendingChallenge,
  submitConfirmSignIn,
} from "~/auth/confirm-sign-in-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

const HEADING_BY_CHALLENGE: Record<string, "sms" | "totp" | "email" | "custom"> = {
  [CHALLENGE.sms]: "sms",
  [CHALLENGE.smsOtp]: "sms",
  [CHALLENGE.totp]: "totp",
  [CHALLENGE.email]: "email",
  [CHALLENGE.custom]: "custom",
};

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const pending = pendingChallenge(context);
  const kind = HEADING_BY_CHALLENGE[pending.challengeName];
  const destination = pending.parameters?.CODE_DELIVERY_DESTINATION;
  return {
    title: authT()(`confirmSignIn.${kind}.title`),
    kind,
    destination: destination ? maskDestination(destination) : null,
    rememberDevice: offersRememberDevice(context, pending.challengeName),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitConfirmSignIn(context, request);
}

export default function ConfirmSignInPage() {
  const { t } = useTranslation("auth");
  const { kind, destination, rememberDevice } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: confirmSignInSchema(kind === "custom" ? "custom" : "code"),
      }),
  });
  // One field: the answer to a custom challenge, or a code.
  const { field, summary } = labelFields(fields, {
    confirmation_code: kind === "custom" ? t("fields.answer") : t("fields.confirmation_code"),
  });
  return (
    <AuthCard
      title={t(`confirmSignIn.${kind}.heading`)}
      intro={
        destination
          ? t(`confirmSignIn.${kind}.introSent`, { destination })
          : t(`confirmSignIn.${kind}.intro`)
      }
    >
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        {kind === "custom" ? (
          <Field {...field.confirmation_code} autoComplete="off" />
        ) : (
          <Field
            {...field.confirmation_code}
            autoComplete="one-time-code"
            inputMode="numeric"
            hint={t("hints.confirmation_code")}
          />
        )}
        {rememberDevice ? (
          <div>
            <div className="flex items-start gap-3">
              <input
                type="checkbox"
                id="remember_device"
                name="remember_device"
                aria-describedby="remember_device-hint"
                className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400 accent-primary"
              />
              <label htmlFor="remember_device" className="min-w-0 text-slate-900">
                {t("confirmSignIn.rememberDevice")}
              </label>
            </div>
            <p id="remember_device-hint" className="mt-1 text-sm text-slate-700">
              {t("confirmSignIn.rememberDeviceHint")}
            </p>
          </div>
        ) : null}
        <SubmitButton pendingLabel={t("confirmSignIn.pending")}>
          {t("confirmSignIn.submit")}
        </SubmitButton>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}
