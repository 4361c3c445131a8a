import type { FieldMetadata } from "@conform-to/react";
import { Checkbox } from "~/components/ui/checkbox";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { useTranslation } from "~/i18n/react";
import { savedCardChoiceValue } from "~/payments/payment-choice";
import { PAYMENT_METHODS } from "~/payments/provider";
import type { SavedCardView } from "~/payments/saved-cards.server";

/**
 * Card, cash at a store or SPEI: radio buttons, so the choice works without JavaScript. Signed
 * in, the account's saved cards come first (each charged at once, decision 0119), and a box
 * saves the card the customer is about to type on the provider's page.
 */
export function PaymentMethodChoice({
  meta,
  voucherHours,
  label,
  savedCards = [],
  saveCard = null,
}: {
  meta: FieldMetadata<string | undefined>;
  /** How long a cash voucher or a transfer may be paid. */
  voucherHours: number;
  /** The group's legend: "Forma de pago", or how the page words it. */
  label: string;
  savedCards?: readonly SavedCardView[];
  /** The box that saves the card: offered to a signed-in customer only. */
  saveCard?: { meta: FieldMetadata<unknown> } | null;
}) {
  const { t } = useTranslation("commerce");
  return (
    <div className="space-y-4">
      <ChoiceGroup
        meta={meta}
        label={label}
        columns="sm:grid-cols-3"
        choices={[
          ...savedCards.map((card) => ({
            value: savedCardChoiceValue(card.id),
            label: t("payment.methods.savedCard.label", {
              brand: t(`payment.brands.${card.brand}`),
              last4: card.last4,
            }),
            description: t("payment.methods.savedCard.description", { expiry: card.expiry }),
            testId: "payment-method-saved-card",
          })),
          ...PAYMENT_METHODS.map((method) => ({
            value: method,
            label:
              method === "card" && savedCards.length > 0
                ? t("payment.methods.card.otherLabel")
                : t(`payment.methods.${method}.label`),
            description: t(`payment.methods.${method}.description`, { hours: voucherHours }),
            testId: `payment-method-${method}`,
          })),
        ]}
      />
      {saveCard ? (
        <Checkbox meta={saveCard.meta} className="max-w-2xl">
          {t("payment.saveCard")}
        </Checkbox>
      ) : null}
    </div>
  );
}
