import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import type { FocusEvent } from "react";
import { formatPrice } from "~/catalog/money";
import { PaymentMethodChoice } from "~/components/payments/payment-method-choice";
import { Alert } from "~/components/ui/alert";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, FormKeyInput } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { TOPUP_AMOUNTS, topupBenefits } from "~/topup/amounts";
import { TopupBenefits } from "~/components/topup/topup-benefits";
import { TOPUP_PATH } from "~/topup/paths";
import { maskPhoneNumber } from "~/topup/phone";
import { REGISTRATION_PATH } from "~/registration/paths";
import type { PaymentOptions } from "~/payments/payment-options.server";
import {
  OTHER_LINE,
  type TopupAnswer,
  topupSchema,
  UNREGISTERED_ACK_FIELD,
} from "~/topup/topup-schema";

/** The form as it opens: the number filled in (its saved line if it is one), else the first saved line. */
function topupDefaults(lines: string[], number: string | null): Record<string, string | undefined> {
  if (!number) return { saved_line: lines[0], payment_method: "card" };
  if (lines.includes(number)) return { saved_line: number, payment_method: "card" };
  return {
    saved_line: lines.length ? OTHER_LINE : undefined,
    phone_number: number,
    phone_number_confirm: number,
    payment_method: "card",
  };
}

export interface TopupFormProps {
  /** A number to top up, filled in (a line page's button); null: none. */
  prefilledNumber: string | null;
  savedLines: string[];
  askEmail: boolean;
  idempotencyKey: string;
  voucherHours: number;
  /** The account's saved cards, and whether to offer saving one (decision 0119). */
  paymentOptions: PaymentOptions;
  lastResult: TopupAnswer | SubmissionResult<string[]> | undefined;
}

/**
 * The line is suspended for want of a registration: said before paying, with the way to
 * register it. The form sent again carries the number warned about and goes on to the payment.
 */
function UnregisteredWarning({ number }: { number: string }) {
  const { t } = useTranslation("topup");
  return (
    <Alert tone="info" className="space-y-2" testId="topup-unregistered">
      <p className="font-semibold">
        {t("unregistered.heading", { masked: maskPhoneNumber(number) })}
      </p>
      <p>{t("unregistered.body")}</p>
      <p>
        <Link
          to={REGISTRATION_PATH}
          className="font-medium text-secondary underline underline-offset-4"
        >
          {t("unregistered.register")}
        </Link>
      </p>
      <p>{t("unregistered.continue")}</p>
      <input type="hidden" name={UNREGISTERED_ACK_FIELD} value={number} />
    </Alert>
  );
}

/**
 * The top-up form, the same at /recarga (anyone) and /my-account/recarga (saved lines first).
 * A plain form: radio buttons and text fields that work without JavaScript.
 */
export function TopupForm({
  prefilledNumber,
  savedLines: lines,
  askEmail,
  idempotencyKey,
  voucherHours,
  paymentOptions,
  lastResult,
}: TopupFormProps) {
  const { t } = useTranslation("topup");
  const schema = topupSchema({ savedLines: lines, askEmail });
  const [form, fields] = useForm({
    lastResult,
    defaultValue: topupDefaults(lines, prefilledNumber),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  // The e-mail is asked for without an account only; unasked, it is never wrong.
  const { field, summary } = labelFields(fields, {
    saved_line: t("form.savedLinesLegend"),
    phone_number: t("form.phone_number"),
    phone_number_confirm: t("form.phone_number_confirm"),
    amount: t("form.amountLegend"),
    email: t("form.email"),
    payment_method: t("commerce:payment.methods.legend"),
    save_card: t("commerce:payment.saveCardLabel"),
  });
  // With JavaScript: typing a number means "another number", so the saved line is deselected.
  const chooseOtherLine = (event: FocusEvent<HTMLInputElement>) => {
    const choice = event.currentTarget.form?.elements.namedItem(fields.saved_line.name);
    if (choice instanceof RadioNodeList) choice.value = OTHER_LINE;
  };

  return (
    <Form method="post" {...getFormProps(form)} className="max-w-3xl space-y-8">
      <ErrorSummary
        refused={refusal(lastResult)}
        formErrors={form.errors}
        heading="topup:form.errorSummary"
        fields={summary}
      />
      {/* The key of the submission being corrected: fixing a mistake keeps the same top-up. */}
      <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
      {lines.length ? (
        <ChoiceGroup
          {...field.saved_line}
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
          <Field
            {...field.phone_number}
            type="tel"
            hint={t("form.phone_number_hint")}
            autoComplete="off"
            inputMode="tel"
          />
          <Field
            {...field.phone_number_confirm}
            type="tel"
            hint={t("form.phone_number_confirm_hint")}
            autoComplete="off"
            inputMode="tel"
          />
        </div>
      </fieldset>
      <ChoiceGroup
        {...field.amount}
        columns="grid-cols-2 md:grid-cols-4"
        choices={TOPUP_AMOUNTS.map((offer) => ({
          value: String(offer.amount),
          label: formatPrice(offer.amount),
          testId: "topup-amount",
          description: <TopupBenefits benefits={topupBenefits(offer)} layout="lines" />,
        }))}
      />
      {askEmail ? (
        <Field {...field.email} type="email" hint={t("form.email_hint")} autoComplete="email" />
      ) : null}
      <PaymentMethodChoice
        {...field.payment_method}
        voucherHours={voucherHours}
        savedCards={paymentOptions.savedCards}
        saveCard={paymentOptions.offerToSaveCard ? field.save_card : null}
      />
      {lastResult && "unregisteredWarning" in lastResult && lastResult.unregisteredWarning ? (
        <UnregisteredWarning number={lastResult.unregisteredWarning} />
      ) : null}
      <div>
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("form.submitting")}>
          {t("form.submit")}
        </SubmitButton>
        <p className="mt-2 text-sm text-slate-700">{t("form.paymentNote")}</p>
      </div>
      {askEmail ? (
        <p className="text-slate-800" data-testid="topup-sign-in-hint">
          {t("form.signInHint")}{" "}
          <Link
            to={`/auth/sign-in?redirectTo=${encodeURIComponent(TOPUP_PATH)}`}
            className="font-medium text-secondary underline underline-offset-4"
          >
            {t("form.signInLink")}
          </Link>
        </p>
      ) : null}
    </Form>
  );
}
