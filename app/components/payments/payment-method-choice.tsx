import type { FieldMetadata } from "@conform-to/react";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { useTranslation } from "~/i18n/react";
import { PAYMENT_METHODS } from "~/payments/provider";

/** Card, cash at a store or SPEI: radio buttons, so the choice works without JavaScript. */
export function PaymentMethodChoice({
  meta,
  voucherHours,
  label,
}: {
  meta: FieldMetadata<string | undefined>;
  /** How long a cash voucher or a transfer may be paid. */
  voucherHours: number;
  /** The group's legend: "Forma de pago", or how the page words it. */
  label: string;
}) {
  const { t } = useTranslation("commerce");
  return (
    <ChoiceGroup
      meta={meta}
      label={label}
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
