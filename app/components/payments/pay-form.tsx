import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import type { PaymentOptions } from "~/payments/payment-options.server";
import type { PaymentView } from "~/payments/payment-view.server";
import { PaymentMethodChoice } from "./payment-method-choice";

/**
 * Pay what is waiting for payment: the method (the current one checked) and one button. With a
 * voucher already issued, the same form offers to pay another way instead.
 */
export function PayForm({
  payment,
  voucherHours,
  lastResult,
  submitLabel,
  refreshTo,
  options,
}: {
  payment: PaymentView | null;
  voucherHours: number;
  /** The account's saved cards, and whether to offer saving one. */
  options: PaymentOptions;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  /** The page itself, to look for news of a payment in progress. */
  refreshTo: string | null;
}) {
  const { t } = useTranslation("commerce");
  const [form, fields] = useForm({
    id: "pagar",
    lastResult,
    defaultValue: { payment_method: payment?.method ?? "card" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: paymentChoiceSchema }),
  });
  const { field } = labelFields(fields, {
    payment_method: payment?.instructions ? t("payment.switchLegend") : t("payment.methods.legend"),
    save_card: t("payment.saveCardLabel"),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mb-8 space-y-4 print:hidden">
      <PaymentMethodChoice
        {...field.payment_method}
        voucherHours={voucherHours}
        savedCards={options.savedCards}
        saveCard={options.offerToSaveCard ? field.save_card : null}
      />
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel={t("confirmation.retrying")}>{submitLabel}</SubmitButton>
        {refreshTo ? (
          <Link to={refreshTo} className="font-medium text-secondary underline underline-offset-4">
            {t("confirmation.pendingRefresh")}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
