import { Fragment } from "react";
import { useTranslation } from "~/i18n/react";
import type { TopupBenefit } from "~/topup/amounts";

/** What a top-up amount buys: one per line on its card, in a row on the receipt. */
export function TopupBenefits({
  benefits,
  layout,
}: {
  benefits: readonly TopupBenefit[];
  layout: "lines" | "row";
}) {
  const { t } = useTranslation("topup");
  return (
    <>
      {benefits.map((benefit, index) => (
        <Fragment key={benefit.key}>
          {index === 0 ? null : layout === "lines" ? <br /> : " · "}
          <span data-testid="topup-benefit">{t(`form.${benefit.key}`, benefit)}</span>
        </Fragment>
      ))}
    </>
  );
}
