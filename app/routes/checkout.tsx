import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import type { PricedCart } from "~/cart/cart-lines";
import { formatPrice, formatTotal } from "~/catalog/money";
import { PHYSICAL_SIM_DELIVERY, SHIPPING_PRICE, SIM_PRICE, type SimType } from "~/catalog/terms";
import { questionHref } from "~/components/help/help-article";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { checkoutConstraint, checkoutSchema } from "~/checkout/checkout-schema";
import { loadCheckoutForm, submitCheckout } from "~/checkout/checkout-request.server";
import { MEXICAN_STATES } from "~/lib/mexican-states";
import { KeepNumberFieldset, useKeepNumberFields } from "~/components/commerce/keep-number-fields";
import { PaymentMethodChoice } from "~/components/payments/payment-method-choice";
import { KeptData, PersonFields } from "~/components/registration/holder-form";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, FormKeyInput, SelectField } from "~/components/ui/form-field";
import { labelFields, type LabelledField } from "~/components/ui/labelled-fields";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { legalDocumentPath, type LegalDocument } from "~/lib/external-links";
import { titleMeta } from "~/lib/meta";
import { CHECKOUT_HOLDER_KINDS, nationalityOptions } from "~/registration/holder";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["commerce", "registration", "portability"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

export async function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return {
    title: getFixedT()("pages.checkout.title"),
    ...(await loadCheckoutForm(context)),
    countries: nationalityOptions(),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitCheckout(context, request, getCustomer(context));
}

function OrderSummary({ cart }: { cart: PricedCart }) {
  const extras = SIM_PRICE + SHIPPING_PRICE;
  const { t } = useTranslation("commerce");
  return (
    <section
      aria-labelledby="checkout-summary"
      className="h-fit rounded-lg border border-slate-200 bg-slate-50 p-5 lg:order-last"
      data-testid="checkout-summary"
    >
      <h2 id="checkout-summary" className="text-xl font-bold text-slate-900">
        {t("checkout.summaryHeading")}
      </h2>
      <ul className="mt-4 divide-y divide-slate-200">
        {cart.lines.map((line) => (
          <li key={line.plan.id} className="flex justify-between gap-4 py-2">
            <span className="min-w-0 wrap-anywhere">
              {line.quantity} × {line.plan.name}
            </span>
            <span className="font-medium">{formatPrice(line.lineTotal)}</span>
          </li>
        ))}
        <li className="flex justify-between gap-4 py-2" data-testid="checkout-sim-and-shipping">
          <span>{t("checkout.simAndShipping")}</span>
          <span className="font-medium">{extras ? formatPrice(extras) : t("checkout.free")}</span>
        </li>
      </ul>
      <p className="mt-4 flex justify-between border-t border-slate-300 pt-4 text-lg font-bold">
        <span>{t("cart.total")}</span>
        <span data-testid="checkout-total">{formatTotal(cart.total)}</span>
      </p>
    </section>
  );
}

function SimTypeChoice({
  field,
  cart,
  simTypes,
}: {
  field: LabelledField;
  cart: PricedCart;
  simTypes: SimType[];
}) {
  const { t } = useTranslation("commerce");
  if (simTypes.length === 0) {
    return (
      <Alert testId="sim-type-mixed">
        <p className="text-slate-900">{t("checkout.sim.mixed")}</p>
        <Link to="/cart" className="mt-2 inline-block font-medium text-secondary underline">
          {t("checkout.sim.mixedLink")}
        </Link>
      </Alert>
    );
  }
  const exclusive = (only: SimType) =>
    cart.lines
      .filter((line) => line.plan.simTypes.length === 1 && line.plan.simTypes[0] === only)
      .map((line) => line.plan.name)
      .join(", ");
  const onlyPhysical = exclusive("physical");
  const onlyEsim = exclusive("esim");
  return (
    <div className="space-y-3" data-testid="sim-type">
      <ChoiceGroup
        {...field}
        choices={simTypes.map((type) => ({
          value: type,
          label: t(`checkout.sim.${type}.label`),
          description: t(`checkout.sim.${type}.description`, {
            cityMin: PHYSICAL_SIM_DELIVERY.cities.minDays,
            cityMax: PHYSICAL_SIM_DELIVERY.cities.maxDays,
            elsewhereMax: PHYSICAL_SIM_DELIVERY.elsewhere.maxDays,
          }),
          testId: `sim-type-${type}`,
        }))}
      />
      {onlyPhysical ? (
        <p className="text-sm text-slate-700">
          {t("checkout.sim.onlyPhysical", { plans: onlyPhysical })}
        </p>
      ) : null}
      {onlyEsim ? (
        <p className="text-sm text-slate-700">{t("checkout.sim.onlyEsim", { plans: onlyEsim })}</p>
      ) : null}
      {simTypes.includes("esim") ? (
        <p className="text-sm text-slate-700">
          {t("checkout.sim.compatibility")}{" "}
          <Link
            to={questionHref("mi-telefono-es-compatible-con-esim")}
            className="font-medium text-secondary underline underline-offset-4"
          >
            {t("checkout.sim.compatibilityLink")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/**
 * Who will hold the lines (issue 27): since 2026 each line is registered to its holder when it is
 * activated. The kinds' own fields are hidden by CSS while the other kind is chosen
 * (tailwind.css), with or without JavaScript; the server checks only the chosen kind's.
 */
function HolderFieldset({
  field,
  countries,
}: {
  field: Record<
    | "holder_kind"
    | "full_name"
    | "curp"
    | "identification_type"
    | "passport_number"
    | "nationality",
    LabelledField
  >;
  countries: Array<{ value: string; label: string }>;
}) {
  const { t } = useTranslation("commerce");
  const { t: tr } = useTranslation("registration");
  return (
    <fieldset className="space-y-5" data-holder-fields data-testid="holder-fields">
      <legend className="mb-2 text-xl font-bold text-slate-900">
        {t("checkout.holder.heading")}
      </legend>
      <p className="text-slate-800">{t("checkout.holder.why")}</p>
      <p className="text-slate-800">{t("checkout.holder.someoneElse")}</p>
      <ChoiceGroup
        {...field.holder_kind}
        legendSize="label"
        choices={CHECKOUT_HOLDER_KINDS.map((kind) => ({
          value: kind,
          label: tr(`holderKinds.${kind}`),
          testId: `holder-kind-${kind}`,
        }))}
      />
      <PersonFields
        kind="both"
        field={field}
        countries={countries}
        hints={{
          full_name: t("checkout.holder.fullNameHint"),
          curp: t("checkout.holder.curpHint"),
        }}
      />
      <KeptData />
    </fieldset>
  );
}

export default function CheckoutPage() {
  const loaded = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { cart, simTypes, portableSims } = loaded;
  const { t } = useTranslation("commerce");
  const schema = checkoutSchema(simTypes, portableSims.length);
  const [form, fields] = useForm({
    lastResult,
    // A physical SIM works in any phone: it is the safe choice when both are possible.
    defaultValue: {
      payment_method: "card",
      sim_type: simTypes[0],
      holder: { holder_kind: "fisica" },
      // One "Quiero conservar mi número" per SIM offered, none checked: keeping one is opt-in.
      ports: portableSims.map(() => ({ keep: "" })),
    },
    constraint: checkoutConstraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const { field, summary } = labelFields(fields, {
    full_name: t("checkout.fields.full_name"),
    email: t("checkout.fields.email"),
    phone_number: t("checkout.fields.phone_number"),
    sim_type: t("checkout.sim.legend"),
    street: t("checkout.fields.street"),
    exterior_number: t("checkout.fields.exterior_number"),
    interior_number: t("checkout.fields.interior_number"),
    neighborhood: t("checkout.fields.neighborhood"),
    postal_code: t("checkout.fields.postal_code"),
    municipality: t("checkout.fields.municipality"),
    state: t("checkout.fields.state"),
    payment_method: t("payment.methods.legend"),
    save_card: t("payment.saveCardLabel"),
    accept_terms: t("checkout.fields.accept_terms"),
  });
  const holderFields = fields.holder.getFieldset();
  const { field: holder, summary: holderSummary } = labelFields(holderFields, {
    holder_kind: t("checkout.holder.kind"),
    full_name: t("checkout.holder.fullName"),
    curp: t("checkout.holder.curp"),
    identification_type: t("checkout.holder.identificationType"),
    passport_number: t("checkout.holder.passportNumber"),
    nationality: t("checkout.holder.nationality"),
  });
  const portFieldsets = fields.ports.getFieldList().map((port) => port.getFieldset());
  const { lines: keepNumberLines, summary: keepNumberSummary } = useKeepNumberFields(
    portFieldsets,
    portableSims,
  );
  // The error summary lists the fields where the page shows them: the holder's after the
  // contact, the numbers to keep after the SIM type.
  const summaryInPageOrder = [
    ...summary.slice(0, 3),
    ...holderSummary,
    ...summary.slice(3, 4),
    ...keepNumberSummary,
    ...summary.slice(4),
  ];
  const pdfLink = (slug: LegalDocument, label: string) => (
    <a
      href={legalDocumentPath(slug)}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-secondary underline underline-offset-4"
    >
      {label} <span className="sr-only">{t("checkout.fields.opensPdf")}</span>
    </a>
  );

  return (
    <>
      <PageHeader title={t("common:pages.checkout.heading")}>{t("checkout.intro")}</PageHeader>
      <div className="grid gap-8 lg:grid-cols-3">
        <OrderSummary cart={cart} />
        <Form method="post" {...getFormProps(form)} className="space-y-8 lg:col-span-2">
          <ErrorSummary
            refused={refusal(lastResult)}
            formErrors={form.errors}
            heading="commerce:checkout.errorSummary"
            fields={summaryInPageOrder}
          />
          <FormKeyInput meta={fields.idempotency_key} issued={loaded.idempotencyKey} />
          <fieldset className="space-y-4">
            <legend className="mb-2 text-xl font-bold text-slate-900">
              {t("checkout.contactHeading")}
            </legend>
            <Field {...field.full_name} autoComplete="name" />
            <Field {...field.email} type="email" autoComplete="email" />
            <Field
              {...field.phone_number}
              type="tel"
              hint={t("checkout.fields.phone_number_hint")}
              autoComplete="tel-national"
              inputMode="tel"
            />
          </fieldset>
          <HolderFieldset field={holder} countries={loaded.countries} />
          <SimTypeChoice field={field.sim_type} cart={cart} simTypes={simTypes} />
          <KeepNumberFieldset
            lines={keepNumberLines}
            simCount={cart.lines.reduce((sum, line) => sum + line.quantity, 0)}
            answered={lastResult !== undefined}
          />
          {/* Hidden by CSS while eSIM is chosen (tailwind.css), with or without JavaScript. */}
          <fieldset className="grid gap-4 sm:grid-cols-2" data-delivery-fields>
            <legend className="mb-2 text-xl font-bold text-slate-900">
              {t("checkout.addressHeading")}
            </legend>
            {simTypes.includes("esim") ? (
              <p className="text-sm text-slate-700 sm:col-span-2" data-esim-only>
                {t("checkout.sim.noAddress")}
              </p>
            ) : null}
            <Field {...field.street} autoComplete="address-line1" className="sm:col-span-2" />
            <Field {...field.exterior_number} />
            <Field {...field.interior_number} autoComplete="address-line2" />
            <Field {...field.neighborhood} />
            <Field {...field.postal_code} autoComplete="postal-code" inputMode="numeric" />
            <Field {...field.municipality} autoComplete="address-level2" />
            <SelectField
              {...field.state}
              placeholder={t("checkout.fields.statePlaceholder")}
              autoComplete="address-level1"
              options={MEXICAN_STATES.map((code) => ({ value: code, label: t(`states.${code}`) }))}
            />
          </fieldset>
          <PaymentMethodChoice
            {...field.payment_method}
            voucherHours={loaded.voucherHours}
            savedCards={loaded.paymentOptions.savedCards}
            saveCard={loaded.paymentOptions.offerToSaveCard ? field.save_card : null}
          />
          <Checkbox meta={field.accept_terms.meta}>
            {t("checkout.fields.accept_terms_before")}{" "}
            {pdfLink("contrato-de-adhesion", t("checkout.fields.accept_terms_contract"))}{" "}
            {t("checkout.fields.accept_terms_and")}{" "}
            {pdfLink("aviso-de-privacidad", t("checkout.fields.accept_terms_privacy"))}
          </Checkbox>
          <div>
            <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("checkout.submitting")}>
              {t("checkout.submit", { total: formatTotal(cart.total) })}
            </SubmitButton>
            <p className="mt-2 text-sm text-slate-700">{t("checkout.paymentNote")}</p>
          </div>
        </Form>
      </div>
    </>
  );
}
