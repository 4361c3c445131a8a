import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { authT, cognitoErrorReply, invalidReply, rateLimited } from "~/auth/flow.server";
import { safeRedirectPath } from "~/auth/redirect";
import { confirmVerifyUserSchema } from "~/auth/schemas";
import { refreshSessionNow, requireCustomer } from "~/auth/session.server";
import { authPath, type ContactAttribute } from "~/auth/steps";
import { AuthCard } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { setFlash } from "~/lib/flash.server";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"], query: ["attr", "redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

function readQuery(request: Request): { attribute: ContactAttribute | null; redirectTo: string } {
  const params = new URL(request.url).searchParams;
  const attr = params.get("attr");
  return {
    attribute: attr === "email" || attr === "phone_number" ? attr : null,
    redirectTo: safeRedirectPath(params.get("redirectTo")),
  };
}

export function loader({ request, context }: LoaderFunctionArgs) {
  requireCustomer(context, request);
  const { attribute, redirectTo } = readQuery(request);
  if (!attribute)
    throw redirect(`${authPath("verify-user")}?redirectTo=${encodeURIComponent(redirectTo)}`);
  return { title: authT()("confirmVerifyUser.title"), attribute, redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { accessToken, customer } = requireCustomer(context, request);
  const { attribute, redirectTo } = readQuery(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, {
    schema: confirmVerifyUserSchema(),
  });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["confirmation_code"] });
  if (!attribute) return redirect(authPath("verify-user"), { status: 303 });
  const limited = await rateLimited(context, submission, customer.email);
  if (limited) return limited;
  try {
    await context.identity.client.verifyUserAttribute(
      accessToken,
      attribute,
      submission.value.confirmation_code,
    );
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "VerifyUserAttribute", customer.email);
  }
  // The ID token says whether the contact is verified: new tokens now, so the account shows it.
  await refreshSessionNow(context);
  setFlash(context, { kind: "success", key: "auth:flash.contactVerified" });
  return redirect(redirectTo, { status: 303 });
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
