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
import { attributesRecord } from "~/auth/cognito.server";
import { authT } from "~/auth/flow.server";
import { verifyUserSchema } from "~/auth/schemas";
import { requireCustomer } from "~/auth/session.server";
import { unverifiedContacts } from "~/auth/steps";
import { maskDestination } from "~/auth/tokens";
import { AuthCard } from "~/components/auth/form-parts";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { labelFields } from "~/components/ui/labelled-fields";
import { titleMeta } from "~/lib/meta";
import { submitVerifyUser, target } from "~/auth/verify-user-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"], query: ["redirectTo"] };
export const meta = titleMeta;
export { headers } from "~/lib/route-headers";

export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { accessToken } = requireCustomer(context, request);
  let attributes: Record<string, string>;
  try {
    attributes = attributesRecord(await context.identity.client.getUser(accessToken));
  } catch {
    // Verifying is optional (skip allowed): without the service the customer just moves on.
    throw redirect(target(request), { status: 303 });
  }
  const contacts = unverifiedContacts(attributes);
  if (contacts.length === 0) throw redirect(target(request), { status: 303 });
  return {
    title: authT()("verifyUser.title"),
    redirectTo: target(request),
    contacts: contacts.map((name) => ({ name, value: maskDestination(attributes[name]) })),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitVerifyUser(context, request);
}

export default function VerifyUserPage() {
  const { t } = useTranslation("auth");
  const { contacts, redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { unverifiedAttr: contacts[0]?.name },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: verifyUserSchema() }),
  });
  const { field, summary } = labelFields(fields, {
    unverifiedAttr: t("fields.unverifiedAttr"),
  });
  return (
    <AuthCard title={t("verifyUser.heading")} intro={t("verifyUser.intro")}>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-4">
        <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
        <ChoiceGroup
          legendSize="label"
          {...field.unverifiedAttr}
          choices={contacts.map((contact) => ({
            value: contact.name,
            label: t(`contacts.${contact.name}`),
            description: contact.value,
          }))}
        />
        <SubmitButton pendingLabel={t("verifyUser.pending")}>{t("verifyUser.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-center">
        <Link to={redirectTo} className="font-medium text-secondary underline">
          {t("common.skip")}
        </Link>
      </p>
    </AuthCard>
  );
}
