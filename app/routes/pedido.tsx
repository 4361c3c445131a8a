import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, data, useActionData, useLoaderData } from "@remix-run/react";
import { orderLookupSchema } from "~/checkout/order-lookup";
import { requestOrderLink } from "~/checkout/order-lookup.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["commerce"], query: ["folio"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** `?folio=` (the link in the customer's e-mails) fills in the folio; the e-mail is typed. */
export function loader({ request }: LoaderFunctionArgs) {
  const folio = new URL(request.url).searchParams.get("folio") ?? "";
  return {
    title: getFixedT()("pages.orderLookup.title"),
    folio: /^[A-Za-z0-9-]{1,20}$/.test(folio) ? folio.toUpperCase() : "",
  };
}

/**
 * Folio and e-mail → a one-time link to the order, sent to the order's address (decision 0082).
 * A POST, so that the e-mail never sits in an address or a log. The answer is the same whether
 * or not the pair is an order's: this page shows nothing of any order.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: orderLookupSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), sent: false }, { status: 400 });
  }
  try {
    const outcome = await requestOrderLink(context, submission.value);
    if (outcome.kind === "limited") {
      context.logger.warn({ msg: "order lookups over the limit", requestId: context.requestId });
      return data(
        { result: submission.reply({ formErrors: ["commerce:lookup.limited"] }), sent: false },
        { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
      );
    }
  } catch (error) {
    // The counters live in the database: no lookup without them (decision 0075).
    return databaseBusyOrRethrow(context, "order lookup", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
      sent: false,
    });
  }
  return data({ result: submission.reply(), sent: true });
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
    </>
  );
}
