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
import { confirmSignUpFormSchema } from "~/auth/schemas";
import { readPending } from "~/auth/session.server";
import { maskDestination } from "~/auth/tokens";
import { AuthCard } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { submitConfirmSignUp } from "~/auth/confirm-sign-up-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const pending = readPending(context);
  return {
    title: authT()("confirmSignUp.title"),
    username: pending?.username ?? "",
    destination: pending?.delivery ? maskDestination(pending.delivery.destination) : null,
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitConfirmSignUp(context, request);
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
