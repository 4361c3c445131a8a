import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData } from "@remix-run/react";
import { formatPrice, formatTotal } from "~/catalog/money";
import { ORDER_LOOKUP_LIMITS, orderLookupSchema } from "~/checkout/order-lookup";
import { readOrderAccess, rememberOrder, saveOrderAccess } from "~/checkout/order-access.server";
import { ORDER_PAYMENT_PURPOSE } from "~/checkout/order-payments.server";
import { findOrderByFolioAndEmail } from "~/checkout/orders.server";
import { confirmationPath } from "~/checkout/paths";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { EsimActivations } from "~/components/commerce/esim-activations";
import { PaymentInstructions } from "~/components/payments/payment-instructions";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { PageHeader } from "~/components/ui/page-header";
import { esimView } from "~/esim/esim-view.server";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { formatDate, formatDateTime } from "~/lib/dates";
import type { RateLimitVerdict } from "~/lib/rate-limit";
import { titleMeta } from "~/lib/meta";
import { paymentView } from "~/payments/payment-view.server";

export const handle = { i18n: ["commerce"], query: ["folio"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** `?folio=` (the link in the customer's e-mails) fills in the folio; the e-mail is typed. */
export function loader({ request }: LoaderFunctionArgs) {
  const folio = new URL(request.url).searchParams.get("folio") ?? "";
  return {
    title: getFixedT()("pages.orderLookup.title"),
    folio: /^[A-Za-z0-9-]{1,20}$/.test(folio) ? folio.toUpperCase() : "",
  };
}

/**
 * Folio and e-mail → the order, from any browser. A POST, so that the e-mail never sits in an
 * address or a log. A wrong pair answers the same "no encontramos" whatever was wrong; lookups
 * are limited per address and per folio. A match also lets this browser open the order's own
 * page (to pay it, see its voucher or install its eSIM), as if it had placed it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: orderLookupSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), order: null }, { status: 400 });
  }
  const { folio, correo } = submission.value;
  let verdict: RateLimitVerdict;
  try {
    verdict = await context.rateLimiter.consume([
      { key: `order-lookup-ip:${context.clientAddressKey}`, rule: ORDER_LOOKUP_LIMITS.perIp },
      { key: `order-lookup-folio:${folio}`, rule: ORDER_LOOKUP_LIMITS.perFolio },
      { key: `order-lookup-folio-day:${folio}`, rule: ORDER_LOOKUP_LIMITS.perFolioPerDay },
    ]);
  } catch (error) {
    // The counters live in the database: no lookup without them (decision 0075).
    return databaseBusyOrRethrow(context, "order lookup", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
      order: null,
    });
  }
  if (!verdict.allowed) {
    context.logger.warn({ msg: "order lookups over the limit", requestId: context.requestId });
    return data(
      { result: submission.reply({ formErrors: ["commerce:lookup.limited"] }), order: null },
      { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
  const order = await findOrderByFolioAndEmail(context.db, folio, correo);
  if (!order) {
    return data(
      { result: submission.reply({ formErrors: ["commerce:lookup.notFound"] }), order: null },
      { status: 404 },
    );
  }
  saveOrderAccess(context, rememberOrder(readOrderAccess(context), order.ref));
  const payment = await context.payments.latest(ORDER_PAYMENT_PURPOSE, order.ref);
  const instructions =
    order.status === "pending_payment" ? (paymentView(payment)?.instructions ?? null) : null;
  return data(
    {
      result: submission.reply(),
      order: {
        folio: order.folio,
        href: confirmationPath(order.ref),
        status: order.status === "paid" && order.shipment ? "shipped" : order.status,
        placedOn: formatDateTime(order.createdAt),
        total: order.total,
        simType: order.simType,
        lines: order.lines,
        delivery: order.delivery
          ? {
              name: order.customer.fullName,
              municipality: order.delivery.municipality,
              state: order.delivery.state,
            }
          : null,
        shipment: order.shipment
          ? { ...order.shipment, shippedOn: formatDate(order.shipment.shippedAt) }
          : null,
        instructions,
        esim: await esimView(context, order),
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function OrderLookupPage() {
  const { folio } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("commerce");
  const [form, fields] = useForm({
    lastResult: answer?.result,
    defaultValue: { folio },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: orderLookupSchema }),
  });
  const order = answer?.order ?? null;

  return (
    <>
      <PageHeader title={t("lookup.heading")}>{t("lookup.intro")}</PageHeader>
      <Form method="post" {...getFormProps(form)} className="mb-10 max-w-xl space-y-4">
        <ErrorSummary
          refused={refusal(answer?.result)}
          formErrors={form.errors}
          heading="commerce:lookup.errorSummary"
          fields={[
            { meta: fields.folio, label: t("lookup.folio") },
            { meta: fields.correo, label: t("lookup.email") },
          ]}
        />
        <Field
          meta={fields.folio}
          label={t("lookup.folio")}
          hint={t("lookup.folioHint")}
          autoComplete="off"
        />
        <Field meta={fields.correo} type="email" label={t("lookup.email")} autoComplete="email" />
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("lookup.submitting")}>
          {t("lookup.submit")}
        </SubmitButton>
      </Form>

      {order ? (
        <section aria-labelledby="lookup-result" data-testid="lookup-result" className="space-y-6">
          <h2 id="lookup-result" className="text-2xl font-bold text-slate-900">
            {t("lookup.resultHeading", { folio: order.folio })}
          </h2>
          <p className="text-slate-700">{t("lookup.placedOn", { date: order.placedOn })}</p>
          <dl className="grid gap-4 sm:grid-cols-3">
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <dt className="text-sm font-medium text-slate-700">{t("lookup.status")}</dt>
              <dd className="text-xl font-extrabold text-slate-900" data-testid="lookup-status">
                {t(`confirmation.statuses.${order.status}`)}
              </dd>
            </div>
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <dt className="text-sm font-medium text-slate-700">{t("lookup.simType")}</dt>
              <dd className="text-xl font-extrabold text-slate-900" data-testid="lookup-sim-type">
                {t(`confirmation.simTypes.${order.simType}`)}
              </dd>
            </div>
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <dt className="text-sm font-medium text-slate-700">{t("lookup.total")}</dt>
              <dd className="text-xl font-extrabold text-slate-900" data-testid="lookup-total">
                {formatTotal(order.total)}
              </dd>
            </div>
          </dl>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white px-4">
            {order.lines.map((line) => (
              <li key={line.planId} className="flex justify-between gap-4 py-2">
                <span>
                  {line.quantity} × {line.planName}
                </span>
                <span className="font-medium">{formatPrice(line.lineTotal)}</span>
              </li>
            ))}
          </ul>
          {order.delivery ? (
            <p className="text-slate-800 wrap-anywhere">
              {t("lookup.deliveryTo", {
                name: order.delivery.name,
                municipality: order.delivery.municipality,
                state: t(`states.${order.delivery.state}`),
              })}
            </p>
          ) : null}
          {order.shipment ? (
            <div data-testid="lookup-shipment" className="text-slate-800">
              <p>{t("confirmation.shipment", { date: order.shipment.shippedOn })}</p>
              {order.shipment.trackingNumber ? (
                <p>
                  {t("confirmation.tracking", {
                    carrier: order.shipment.carrier ?? "—",
                    tracking: order.shipment.trackingNumber,
                  })}
                </p>
              ) : null}
            </div>
          ) : null}
          {order.instructions ? (
            <PaymentInstructions instructions={order.instructions} amount={order.total} />
          ) : null}
          {order.esim ? <EsimActivations {...order.esim} refreshTo={order.href} /> : null}
          <p>
            <Link to={order.href} className={buttonClass({ size: "lg" })}>
              {t("lookup.openOrder")}
            </Link>
            <span className="mt-2 block text-sm text-slate-700">{t("lookup.openOrderHint")}</span>
          </p>
        </section>
      ) : null}
    </>
  );
}
