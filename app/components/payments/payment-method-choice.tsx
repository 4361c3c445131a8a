import type { FieldMetadata } from "@conform-to/react";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { useTranslation } from "~/i18n/react";
import { PAYMENT_METHODS } from "~/payments/provider";

/** Card, cash at a store or SPEI: radio buttons, so the choice works without JavaScript. */
export function PaymentMethodChoice({
  meta,
  voucherHours,
  legend,
}: {
  meta: FieldMetadata<string | undefined>;
  /** How long a cash voucher or a transfer may be paid. */
  voucherHours: number;
  legend?: string;
}) {
  const { t } = useTranslation("commerce");
  return (
    <ChoiceGroup
      meta={meta}
      legend={legend ?? t("payment.methods.legend")}
      columns="sm:grid-cols-3"
      choices={PAYMENT_METHODS.map((method) => ({
        value: method,
        label: t(`payment.methods.${method}.label`),
        description: t(`payment.methods.${method}.description`, { hours: voucherHours }),
        testId: `payment-method-${method}`,
      }))}
    />
  );
}
