import type { FieldMetadata } from "@conform-to/react";
import { NIP_VALIDITY_DAYS, PORTABILITY_MAX_HOURS } from "~/catalog/terms";
import { Checkbox } from "~/components/ui/checkbox";
import { Field, SelectField } from "~/components/ui/form-field";
import { labelFields, type LabelledField } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { legalDocumentPath } from "~/lib/external-links";
import { MAX_PORT_INS } from "~/checkout/checkout-schema";
import { CARRIERS } from "~/portability/carriers";
import { carrierLabel } from "~/portability/display";

/** One SIM's "Quiero conservar mi número" as conform describes it. */
type PortFieldset = ReturnType<
  FieldMetadata<{
    keep?: string;
    phone_number?: string;
    current_carrier?: string;
    nip?: string;
  }>["getFieldset"]
>;

/** A SIM of the checkout that may keep a number: its position and its plan. */
export interface PortableSim {
  position: number;
  planName: string;
}

/**
 * Each portable SIM's fields, labelled: beside each field its own label; in the error summary the
 * label with the SIM it belongs to ("Línea 2: NIP…").
 */
export function useKeepNumberFields(fieldsets: PortFieldset[], sims: readonly PortableSim[]) {
  const { t } = useTranslation("commerce");
  const { t: tp } = useTranslation("portability");
  // A list conform does not hold (an answer to a client that sent none) draws no line.
  const lines = sims.flatMap((sim) => {
    const fieldset = fieldsets[sim.position];
    if (!fieldset) return [];
    const { field } = labelFields(fieldset, {
      keep: t("checkout.keepNumber.keep"),
      phone_number: t("checkout.keepNumber.phoneNumber"),
      current_carrier: tp("form.currentCarrier"),
      nip: tp("form.nip"),
    });
    return [{ sim, field }];
  });
  const summary: LabelledField[] = lines.flatMap(({ sim, field }) =>
    Object.values(field).map((entry) => ({
      meta: entry.meta,
      label:
        sims.length > 1
          ? t("checkout.keepNumber.summaryLabel", { line: sim.position + 1, field: entry.label })
          : entry.label,
    })),
  );
  return { lines, summary };
}

/**
 * "Quiero conservar mi número" for each SIM bought (issue 34, decision 0106): the number, its
 * carrier and its NIP, filed as a portability request when the order is paid. A SIM's fields are
 * hidden by CSS until its box is checked (tailwind.css), with or without JavaScript; the server
 * checks only the checked ones. Nothing here is `required` in the HTML.
 */
export function KeepNumberFieldset({
  lines,
  simCount,
  answered,
}: {
  lines: ReturnType<typeof useKeepNumberFields>["lines"];
  simCount: number;
  /** The server answered the form: the NIPs it never sends back must be typed again. */
  answered: boolean;
}) {
  const { t } = useTranslation("commerce");
  const { t: tp } = useTranslation("portability");
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="keep-number-heading" className="space-y-4" data-testid="keep-number">
      <h2 id="keep-number-heading" className="text-xl font-bold text-slate-900">
        {t("checkout.keepNumber.heading")}
      </h2>
      <p className="text-slate-800">
        {t("checkout.keepNumber.intro", { hours: PORTABILITY_MAX_HOURS })}
      </p>
      <p className="text-sm text-slate-700">
        {t("checkout.keepNumber.consentBefore")}{" "}
        <a
          href={legalDocumentPath("portabilidad")}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-secondary underline underline-offset-4"
        >
          {tp("form.portabilityPolicy")}{" "}
          <span className="sr-only">{t("checkout.fields.opensPdf")}</span>
        </a>
        {t("checkout.keepNumber.consentAfter")}
      </p>
      {simCount > MAX_PORT_INS ? (
        <p className="text-sm text-slate-700">
          {t("checkout.keepNumber.atMost", { count: MAX_PORT_INS })}
        </p>
      ) : null}
      {lines.map(({ sim, field }) => (
        <fieldset
          key={sim.position}
          className="rounded-lg border border-slate-200 p-4"
          data-keep-number
          data-testid={`keep-number-${sim.position}`}
        >
          <legend className="px-1 font-semibold text-slate-900">
            {lines.length > 1
              ? t("checkout.keepNumber.lineLegend", {
                  line: sim.position + 1,
                  plan: sim.planName,
                })
              : t("checkout.keepNumber.oneLineLegend", { plan: sim.planName })}
          </legend>
          <Checkbox meta={field.keep.meta}>{field.keep.label}</Checkbox>
          {/* Hidden by CSS while the box is not checked (tailwind.css). */}
          <div className="mt-4 grid gap-4 sm:grid-cols-2" data-keep-number-details>
            <Field
              {...field.phone_number}
              type="tel"
              hint={tp("form.phoneNumberHint")}
              autoComplete="off"
              inputMode="tel"
            />
            <SelectField
              {...field.current_carrier}
              placeholder={tp("form.chooseCarrier")}
              options={CARRIERS.map((carrier) => ({
                value: carrier.id,
                label: carrierLabel(carrier.id, tp("form.otherCarrier")),
              }))}
            />
            <Field
              {...field.nip}
              hint={
                answered
                  ? tp("form.nipRetype")
                  : t("checkout.keepNumber.nipHint", { days: NIP_VALIDITY_DAYS })
              }
              autoComplete="one-time-code"
              inputMode="numeric"
              className="sm:col-span-2"
            />
          </div>
        </fieldset>
      ))}
    </section>
  );
}
