import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, data, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { getCustomer } from "~/auth/session.server";
import { priceCart, type PricedCart } from "~/cart/cart-lines";
import { readCart } from "~/cart/cart-session.server";
import { formatPrice, formatTotal } from "~/catalog/money";
import { PHYSICAL_SIM_DELIVERY, SHIPPING_PRICE, SIM_PRICE, type SimType } from "~/catalog/terms";
import { questionHref } from "~/components/help/help-article";
import { ChoiceGroup } from "~/components/ui/choice-group";
import {
  checkoutConstraint,
  checkoutSchema,
  simTypesForCart,
  withDefaultSimType,
} from "~/checkout/checkout-schema";
import { MEXICAN_STATES } from "~/checkout/mexican-states";
import {
  canSeeOrder,
  checkoutKey,
  isDraftKey,
  readOrderAccess,
  rememberOrder,
  saveOrderAccess,
} from "~/checkout/order-access.server";
import { orderPayment } from "~/checkout/order-payments.server";
import { findOrderByIdempotencyKey, placeCheckoutOrder } from "~/checkout/orders.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { PaymentMethodChoice } from "~/components/payments/payment-method-choice";
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
import { setFlash } from "~/lib/flash.server";
import { replyWithFormKey } from "~/lib/form-key";
import { isOwnFormKey } from "~/lib/form-key.server";
import { titleMeta } from "~/lib/meta";
import { payFor } from "~/payments/pay-for.server";

export const handle = { i18n: ["commerce"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

function emptyCartRedirect(context: LoaderFunctionArgs["context"]) {
  setFlash(context, { kind: "info", key: "commerce:checkout.flash.emptyCart" });
  return redirect("/cart", { status: 303 });
}

export function loader({ context }: LoaderFunctionArgs) {
  const items = readCart(context);
  const cart = priceCart(items, context.catalogue.find);
  if (cart.lines.length === 0) throw emptyCartRedirect(context);
  return {
    title: getFixedT()("pages.checkout.title"),
    cart,
    simTypes: simTypesFor(cart),
    idempotencyKey: checkoutKey(context, items),
    voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
  };
}

/** The SIM types every plan of the cart comes with; empty when the cart mixes exclusive plans. */
function simTypesFor(cart: PricedCart): SimType[] {
  return simTypesForCart(cart.lines.map((line) => line.plan.simTypes));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const items = readCart(context);
  const cart = priceCart(items, context.catalogue.find);
  const simTypes = simTypesFor(cart);
  const submission = parseWithZod(withDefaultSimType(formData, simTypes), {
    schema: checkoutSchema(simTypes),
  });
  if (cart.lines.length > 0 && simTypes.length === 0) {
    const result = submission.reply({ formErrors: ["commerce:checkout.errors.simTypeMixedCart"] });
    return data(result, { status: 400 });
  }
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (cart.lines.length === 0) return emptyCartRedirect(context);

  const { idempotency_key: idempotencyKey, payment_method: method, ...customer } = submission.value;
  // A key this browser was not given (copied from another one, or signed with a secret it no
  // longer holds), or an old one of its own that placed nothing, opens nothing: the form comes
  // back, values kept, with the key of this browser's checkout of this cart.
  const stale = () =>
    data(
      replyWithFormKey(
        submission.reply({ formErrors: ["commerce:checkout.errors.staleForm"] }),
        checkoutKey(context, items),
      ),
      { status: 409 },
    );
  if (!isOwnFormKey(context, "checkout", idempotencyKey)) return stale();
  try {
    const access = readOrderAccess(context);
    if (!isDraftKey(access, idempotencyKey)) {
      // Not the key of the checkout in progress: only an order this browser placed under it is
      // found again (the form sent a second time, after paying).
      const placed = await findOrderByIdempotencyKey(context.db, idempotencyKey);
      if (!placed || !canSeeOrder(access, placed.ref)) return stale();
    }
    // An order whose voucher expired unpaid is cancelled: the same cart bought again is a new
    // order, under a key derived from the cancelled one's, so that this form sent twice still
    // places one order (and the same key finds it).
    const { order } = await placeCheckoutOrder(context.db, {
      idempotencyKey,
      customer,
      lines: cart.lines,
      customerSub: getCustomer(context)?.sub ?? null,
    });
    saveOrderAccess(context, rememberOrder(readOrderAccess(context), order.ref));
    // A paid order's form sent again only shows the order.
    return await payFor(context, orderPayment(order), method);
  } catch (error) {
    // The order is written in one transaction, and the same key finds it on the next try.
    return databaseBusyOrRethrow(
      context,
      "order",
      error,
      submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
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

export default function CheckoutPage() {
  const loaded = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { cart, simTypes } = loaded;
  const { t } = useTranslation("commerce");
  const schema = checkoutSchema(simTypes);
  const [form, fields] = useForm({
    lastResult,
    // A physical SIM works in any phone: it is the safe choice when both are possible.
    defaultValue: { payment_method: "card", sim_type: simTypes[0] },
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
    accept_terms: t("checkout.fields.accept_terms"),
  });
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
            fields={summary}
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
          <SimTypeChoice field={field.sim_type} cart={cart} simTypes={simTypes} />
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
          <PaymentMethodChoice {...field.payment_method} voucherHours={loaded.voucherHours} />
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
