import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { formatPrice, formatTotal } from "~/catalog/money";
import { autoTopupSchema } from "~/auto-topup/auto-topup-schema";
import type { AutoTopupSummary } from "~/auto-topup/auto-topup-view.server";
import { MONTHLY_MAX_CHOICES, TRIGGER_CHOICES } from "~/auto-topup/rules";
import { TopupBenefits } from "~/components/topup/topup-benefits";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import type { SavedCardView } from "~/payments/saved-cards.server";
import { TOPUP_AMOUNTS, topupBenefits } from "~/topup/amounts";

/** The amount the form suggests when nothing is set yet: the smallest plan's price. */
const SUGGESTED_AMOUNT = TOPUP_AMOUNTS.find((offer) => offer.planId !== null)?.amount;

/**
 * The automatic top-up's settings (decision 0120): how much, when, the monthly cap and which
 * saved card. Radio buttons only: it works without JavaScript. A line whose account has no saved
 * card is told how to save one first.
 */
export function AutoTopupForm({
  summary,
  cards,
  topUpTo,
  lastResult,
}: {
  summary: AutoTopupSummary | null;
  cards: SavedCardView[];
  /** The top-up form with this line filled in: where a card gets saved. */
  topUpTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("topup");
  const on = summary !== null && summary.state !== "off";
  const [form, fields] = useForm({
    id: "recarga-automatica",
    lastResult,
    defaultValue: {
      intent: "activar",
      amount: String(summary?.amount ?? SUGGESTED_AMOUNT ?? ""),
      cuando: summary?.when ?? "vence",
      tope: String(summary?.monthlyMax ?? 2),
      tarjeta: summary?.card?.id ?? cards[0]?.id,
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: autoTopupSchema }),
  });
  const { field, summary: fieldList } = labelFields(fields, {
    amount: t("auto.fields.amount"),
    cuando: t("auto.fields.when"),
    tope: t("auto.fields.cap"),
    tarjeta: t("auto.fields.card"),
  });
  if (cards.length === 0) {
    return (
      <div
        className="max-w-3xl rounded-lg border border-slate-200 bg-white p-4"
        data-testid="auto-topup-no-card"
      >
        <p className="text-slate-800">{t("auto.noCards")}</p>
        <p className="mt-3">
          <Link to={topUpTo} className="font-medium text-secondary underline underline-offset-4">
            {t("auto.saveCardFirst")}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-3xl space-y-8">
      <ErrorSummary
        refused={refusal(lastResult)}
        formErrors={form.errors}
        heading="topup:auto.errorSummary"
        fields={fieldList}
      />
      <input type="hidden" name="intent" value="activar" />
      <ChoiceGroup
        {...field.amount}
        columns="grid-cols-2 md:grid-cols-4"
        choices={TOPUP_AMOUNTS.map((offer) => ({
          value: String(offer.amount),
          label: formatPrice(offer.amount),
          testId: "auto-topup-amount",
          description: <TopupBenefits benefits={topupBenefits(offer)} layout="lines" />,
        }))}
      />
      <ChoiceGroup
        {...field.cuando}
        choices={TRIGGER_CHOICES.map((choice) => ({
          value: choice,
          label: t(`auto.whenChoice.${choice}`),
          testId: "auto-topup-when",
        }))}
      />
      <ChoiceGroup
        {...field.tope}
        columns="grid-cols-2 sm:grid-cols-4"
        choices={MONTHLY_MAX_CHOICES.map((count) => ({
          value: String(count),
          label: t("auto.capChoice", { count }),
          testId: "auto-topup-cap",
        }))}
      />
      <p className="-mt-6 text-sm text-slate-700">{t("auto.capHint")}</p>
      <ChoiceGroup
        {...field.tarjeta}
        choices={cards.map((card) => ({
          value: card.id,
          label: t("auto.cardText", {
            brand: t(`commerce:payment.brands.${card.brand}`),
            last4: card.last4,
          }),
          description: t("auto.cardExpiry", { expiry: card.expiry }),
          testId: "auto-topup-card",
        }))}
      />
      <div>
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("auto.saving")}>
          {on ? t("auto.save") : t("auto.turnOn")}
        </SubmitButton>
        <p className="mt-2 text-sm text-slate-700">
          {t("auto.consent", { example: formatTotal(summary?.amount ?? SUGGESTED_AMOUNT ?? 0) })}
        </p>
      </div>
    </Form>
  );
}

/** Switches it off: a form of its own, one button. */
export function AutoTopupOffForm() {
  const { t } = useTranslation("topup");
  return (
    <Form method="post" className="mt-6">
      <input type="hidden" name="intent" value="desactivar" />
      <SubmitButton variant="quiet" width="blockOnPhone" pendingLabel={t("auto.turningOff")}>
        {t("auto.turnOff")}
      </SubmitButton>
    </Form>
  );
}
