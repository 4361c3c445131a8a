import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { orderLookupSchema } from "~/checkout/order-lookup";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { submitOrderLookup } from "~/checkout/order-lookup-request.server";
import { INVOICING_PATH } from "~/invoicing/paths";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["commerce"], query: ["folio"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** `?folio=` (the link in the customer's e-mails) fills in the folio; the e-mail is typed. */
export function loader({ url }: LoaderFunctionArgs) {
  const folio = url.searchParams.get("folio") ?? "";
  return {
    title: getFixedT()("pages.orderLookup.title"),
    folio: /^[A-Za-z0-9-]{1,20}$/.test(folio) ? folio.toUpperCase() : "",
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitOrderLookup(context, request);
}

export default function OrderLookupPage() {
  const { folio } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("commerce");
  const [form, fields] = useForm({
    lastResult: answer?.result,
    defaultValue: { folio },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: orderLookupSchema }),
  });
  const { field, summary } = labelFields(fields, {
    folio: t("lookup.folio"),
    correo: t("lookup.email"),
  });

  return (
    <>
      <PageHeader title={t("lookup.heading")}>{t("lookup.intro")}</PageHeader>
      {answer?.sent ? (
        <Alert tone="success" className="mb-6 max-w-xl" testId="lookup-sent">
          <p className="font-semibold">{t("lookup.sent")}</p>
          <p className="mt-2">{t("lookup.sentHint")}</p>
        </Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mb-10 max-w-xl space-y-4">
        <ErrorSummary
          refused={refusal(answer?.result)}
          formErrors={form.errors}
          heading="commerce:lookup.errorSummary"
          fields={summary}
        />
        <Field {...field.folio} hint={t("lookup.folioHint")} autoComplete="off" />
        <Field {...field.correo} type="email" autoComplete="email" />
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("lookup.submitting")}>
          {t("lookup.submit")}
        </SubmitButton>
      </Form>
      <p className="max-w-xl text-slate-700">{t("lookup.signedInHint")}</p>
      <p className="mt-4 max-w-xl text-slate-700" data-testid="lookup-invoicing">
        {t("common:invoicing.pedidoHint")}{" "}
        <Link
          to={INVOICING_PATH}
          className="font-medium text-secondary underline underline-offset-4"
        >
          {t("common:invoicing.accountHeading")}
        </Link>
        .
      </p>
    </>
  );
}
