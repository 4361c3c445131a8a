import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { confirmVerifyUserSchema } from "~/auth/schemas";
import { requireCustomer } from "~/auth/session.server";
import { authPath } from "~/auth/steps";
import { AuthCard } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { readQuery, submitConfirmVerifyUser } from "~/auth/confirm-verify-user-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"], query: ["attr", "redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  requireCustomer(context, request);
  const { attribute, redirectTo } = readQuery(request);
  if (!attribute)
    throw redirect(`${authPath("verify-user")}?redirectTo=${encodeURIComponent(redirectTo)}`);
  return { title: authT()("confirmVerifyUser.title"), attribute, redirectTo };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitConfirmVerifyUser(context, request);
}

export default function ConfirmVerifyUserPage() {
  const { t } = useTranslation("auth");
  const { attribute, redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: confirmVerifyUserSchema() }),
  });
  const { field, summary } = labelFields(fields, {
    confirmation_code: t("fields.confirmation_code"),
  });
  return (
    <AuthCard
      title={t("confirmVerifyUser.heading")}
      intro={t("confirmVerifyUser.intro", { contact: t(`contacts.${attribute}`) })}
    >
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <Field
          {...field.confirmation_code}
          autoComplete="one-time-code"
          inputMode="numeric"
          hint={t("hints.confirmation_code")}
        />
        <SubmitButton pendingLabel={t("confirmVerifyUser.pending")}>
          {t("confirmVerifyUser.submit")}
        </SubmitButton>
      </Form>
      <p className="mt-4 text-center">
        <Link to={redirectTo} className="font-medium text-secondary underline">
          {t("common.skip")}
        </Link>
      </p>
    </AuthCard>
  );
}
