import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, data, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { FocusEvent } from "react";
import { requireCustomer } from "~/auth/session.server";
import { formatMoney } from "~/catalog/money";
import { PaymentMethodChoice } from "~/components/payments/payment-method-choice";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { FormErrorSummary, TextField } from "~/components/ui/form-field";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { formatData, TOPUP_AMOUNTS } from "~/topup/amounts";
import { maskPhoneNumber } from "~/topup/phone";
import { OTHER_LINE, topupSchema } from "~/topup/topup-schema";
import { createTopup, payTopup, savedLines } from "~/topup/topups.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";

// The payment methods are worded once, in the commerce messages.
export const handle = { i18n: ["topup", "commerce"] };

export const meta = titleMeta;

/**
 * Each visit to the form gets a new idempotency key: submitting this form twice (a double click,
 * a resubmitted POST, the back button) finds the top-up the first submission created, while a
 * new visit is a new top-up — customers top up the same line every week.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { customer } = requireCustomer(context, request);
  return {
    title: getFixedT()("pages.topUp.title"),
    savedLines: await savedLines(context.db, customer.sub),
    idempotencyKey: crypto.randomUUID(),
    voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { customer } = requireCustomer(context, request);
  const lines = await savedLines(context.db, customer.sub);
  const submission = parseWithZod(await request.formData(), { schema: topupSchema(lines) });
  if (submission.status !== "success") {
    return data(submission.reply(), { status: 400 });
  }
  const { phoneNumber, amount, idempotencyKey, method } = submission.value;
  try {
    const created = await createTopup(context.db, {
      customerSub: customer.sub,
      idempotencyKey,
      phoneNumber,
      amount,
    });
    if (created.kind === "conflict") {
      return data(submission.reply({ formErrors: ["topup:errors.conflict"] }), { status: 400 });
    }
    // The form sent again finds its top-up: paid or cancelled, the receipt is all there is to show.
    return await payTopup(context, created.topup, method, customer.email);
  } catch (error) {
    return databaseBusyOrRethrow(
      context,
      "top-up",
      error,
      submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
}

export default function TopUpPage() {
  const { savedLines: lines, idempotencyKey, voucherHours } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("topup");
  const schema = topupSchema(lines);
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { saved_line: lines[0], payment_method: "card" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  // The key of the submission being corrected, so that fixing a mistake keeps the same top-up.
  const key =
    typeof fields.idempotency_key.initialValue === "string"
      ? fields.idempotency_key.initialValue
      : idempotencyKey;
  // With JavaScript: typing a number means "another number", so the saved line is deselected.
  const chooseOtherLine = (event: FocusEvent<HTMLInputElement>) => {
    const choice = event.currentTarget.form?.elements.namedItem(fields.saved_line.name);
    if (choice instanceof RadioNodeList) choice.value = OTHER_LINE;
  };

  return (
    <>
      <PageHeader title={t("common:pages.topUp.heading")}>{t("form.intro")}</PageHeader>
      <Form method="post" {...getFormProps(form)} className="max-w-3xl space-y-8">
        <FormErrorSummary
          formErrors={form.errors}
          fieldsRefused={lastResult?.status === "error" && !form.valid}
          summaryKey="topup:form.errorSummary"
        />
        <input type="hidden" name={fields.idempotency_key.name} value={key} />
        {lines.length ? (
          <ChoiceGroup
            meta={fields.saved_line}
            legend={t("form.savedLinesLegend")}
            choices={[
              ...lines.map((line) => ({
                value: line,
                label: t("form.savedLine", { masked: maskPhoneNumber(line) }),
                description: t("form.savedLineHint"),
                testId: "saved-line",
              })),
              {
                value: OTHER_LINE,
                label: t("form.otherLine"),
                description: t("form.otherLineHint"),
              },
            ]}
          />
        ) : null}
        <fieldset className="space-y-4">
          <legend className="mb-2 text-xl font-bold text-slate-900">
            {lines.length ? t("form.otherLine") : t("form.newLineHeading")}
          </legend>
          <div onFocus={lines.length ? chooseOtherLine : undefined} className="space-y-4">
            <TextField
              meta={fields.phone_number}
              type="tel"
              label={t("form.phone_number")}
              hint={t("form.phone_number_hint")}
              autoComplete="off"
              inputMode="tel"
            />
            <TextField
              meta={fields.phone_number_confirm}
              type="tel"
              label={t("form.phone_number_confirm")}
              hint={t("form.phone_number_confirm_hint")}
              autoComplete="off"
              inputMode="tel"
            />
          </div>
        </fieldset>
        <ChoiceGroup
          meta={fields.amount}
          legend={t("form.amountLegend")}
          columns="grid-cols-2 md:grid-cols-4"
          choices={TOPUP_AMOUNTS.map((offer) => {
            const data = formatData(offer.dataMb);
            return {
              value: String(offer.amount),
              label: formatMoney(offer.amount),
              testId: "topup-amount",
              description: (
                <>
                  {t("form.validity", { count: offer.validityDays })}
                  <br />
                  {t("form.data", { value: data.value, unit: data.unit })}
                  {offer.unlimitedSocial ? (
                    <>
                      <br />
                      {t("form.unlimitedSocial")}
                    </>
                  ) : null}
                </>
              ),
            };
          })}
        />
        <PaymentMethodChoice meta={fields.payment_method} voucherHours={voucherHours} />
        <div>
          <button
            type="submit"
            disabled={submitting}
            className="w-full rounded bg-primary px-6 py-3 text-lg font-semibold text-white hover:bg-primary-dark disabled:cursor-wait disabled:opacity-80 sm:w-auto"
          >
            {submitting ? t("form.submitting") : t("form.submit")}
          </button>
          <p className="mt-2 text-sm text-slate-700">{t("form.paymentNote")}</p>
        </div>
      </Form>
    </>
  );
}
