import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
} from "react-router";
import { saveCart } from "~/cart/cart-session.server";
import { formatPrice, formatTotal } from "~/catalog/money";
import { LINE_ACTIVATION, PHYSICAL_SIM_DELIVERY } from "~/catalog/terms";
import { markCartCleared, saveOrderAccess } from "~/checkout/order-access.server";
import { ORDER_PAYMENT_PURPOSE } from "~/checkout/order-payments.server";
import { confirmationPath, ORDER_AGAIN_INTENT, orderReceiptPdfPath } from "~/checkout/paths";
import { findOrder } from "~/checkout/orders.server";
import { isSettling, useRefreshWhileActivating } from "~/components/activation/line-activation";
import { ShippedSimLines } from "~/components/activation/shipped-sim-lines";
import { EsimActivations } from "~/components/commerce/esim-activations";
import { OrderPortIns } from "~/components/commerce/order-port-ins";
import { loadOrderPortIns } from "~/portability/order-port-in-page.server";
import { esimView } from "~/esim/esim-view.server";
import { shippedSimLines } from "~/line/order-sim-lines.server";
import { PendingPayment } from "~/components/payments/pending-payment";
import { loadPaymentOptions } from "~/payments/payment-options.server";
import { paymentState } from "~/payments/payment-state";
import { PageHeader } from "~/components/ui/page-header";
import { currentPayment } from "~/payments/pay-for.server";
import { paymentView } from "~/payments/payment-view.server";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/dates";
import { titleMeta } from "~/lib/meta";
import { SubmitButton } from "~/components/ui/button";
import { loadOwnOrder, submitOrderPage } from "~/checkout/order-page-request.server";
import { InvoicingLink } from "~/components/invoicing/invoicing-link";
import { invoicePath } from "~/invoicing/paths";
import { requestContext } from "~/lib/router-context.server";
import { HolderProofNotice } from "~/components/registration/holder-proof-notice";
import { loadOrderHolderNotice } from "~/registration/holder-proof-request.server";

export const handle = {
  i18n: ["commerce", "activation", "portability", "registration"],
  query: ["pedido"],
};

export const meta = titleMeta;

export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { order: placed, access } = await loadOwnOrder(context, request);
  let order = placed;
  const { payment, refreshed } = await currentPayment(context, {
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    awaitingPayment: order.status === "pending_payment",
  });
  if (refreshed) order = (await findOrder(context.db, order.ref)) ?? order;
  const entry = access.placed.find((candidate) => candidate.ref === order.ref);
  if (entry && !entry.cartCleared) {
    // The cart empties once, when the customer first sees the order this browser placed, paid or
    // waiting for its cash or SPEI payment: its plans are the order's now, and the next checkout
    // starts afresh. Redirecting lets every part of the page (the cart badge too) read it.
    saveCart(context, []);
    saveOrderAccess(context, markCartCleared(access, order.ref));
    throw redirect(confirmationPath(order.ref));
  }
  // The eSIM first (it may write what the port-ins then show); the reads after it are asked
  // together: under load each wait is a turn of a busy event loop.
  const esim =
    order.status === "paid" && order.simType === "esim" ? await esimView(context, order) : null;
  const [paymentOptions, simLines, portIns, holder] = await Promise.all([
    loadPaymentOptions(context),
    shippedSimLines(context.db, order),
    loadOrderPortIns(context, order),
    // Asked once paid: an unpaid order costs nothing to place (decision 0139).
    order.status === "paid" ? loadOrderHolderNotice(context, order.ref) : null,
  ]);
  return {
    title: getFixedT()("pages.confirmation.title"),
    order,
    payment: paymentView(payment),
    voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
    paymentOptions,
    esim,
    simLines,
    portIns,
    holder,
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitOrderPage(context, request);
}

export default function ConfirmationPage() {
  const { order, payment, voucherHours, paymentOptions, esim, simLines, portIns, holder } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const esimProblem = answer && "esimProblem" in answer ? answer.esimProblem : null;
  const lastResult = answer && !("esimProblem" in answer) ? answer : undefined;
  const { t } = useTranslation("commerce");
  const { paid, cancelled, pending, declined, instructions, statusKey, statusTone } = paymentState(
    order.status,
    payment,
  );
  const shownStatus = paid && order.shipment ? "shipped" : statusKey;
  const { delivery } = order;
  useRefreshWhileActivating(
    [
      ...(esim?.activations ?? []),
      ...(simLines ?? []),
      ...portIns.map((portIn) => ({ line: portIn.portedLine })),
    ].some((sim) => isSettling(sim.line)),
  );

  return (
    <>
      <PageHeader title={t("common:pages.confirmation.heading")}>
        {paid
          ? t("confirmation.paidLead", { name: order.customer.fullName })
          : cancelled
            ? t("confirmation.cancelledLead", { folio: order.folio })
            : declined
              ? null
              : instructions
                ? t("confirmation.voucherLead")
                : t("confirmation.pendingLead")}
      </PageHeader>

      <dl className="mb-8 grid gap-4 sm:grid-cols-3" data-testid="order-facts">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm font-medium text-slate-700">{t("confirmation.folio")}</dt>
          <dd className="text-2xl font-extrabold text-slate-900" data-testid="order-folio">
            {order.folio}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm font-medium text-slate-700">{t("confirmation.status")}</dt>
          <dd className={`text-2xl font-extrabold ${statusTone}`} data-testid="order-status">
            {t(`confirmation.statuses.${shownStatus}`)}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <dt className="text-sm font-medium text-slate-700">
            {paid ? t("confirmation.total") : t("confirmation.totalDue")}
          </dt>
          <dd className="text-2xl font-extrabold text-slate-900" data-testid="order-total">
            {formatTotal(order.total)}
          </dd>
        </div>
      </dl>
      <p className="-mt-4 mb-8 print:hidden">
        <a
          href={orderReceiptPdfPath(order.ref)}
          download
          className="font-medium text-secondary underline underline-offset-4"
          data-testid="order-receipt-pdf"
        >
          {t("confirmation.receiptPdf")}
        </a>
      </p>

      {pending ? (
        <PendingPayment
          messages="commerce:confirmation"
          folio={order.folio}
          amount={order.total}
          payment={payment}
          declined={declined}
          instructions={instructions}
          voucherHours={voucherHours}
          options={paymentOptions}
          lastResult={lastResult}
          refreshTo={confirmationPath(order.ref)}
          declinedTestId="payment-declined"
          pdfHref={orderReceiptPdfPath(order.ref)}
        />
      ) : null}

      {holder ? <HolderProofNotice notice={holder} /> : null}

      <OrderPortIns portIns={portIns} refreshTo={confirmationPath(order.ref)} />

      {esim ? (
        <EsimActivations {...esim} problem={esimProblem} refreshTo={confirmationPath(order.ref)} />
      ) : null}

      {simLines ? (
        <ShippedSimLines sims={simLines} refreshTo={confirmationPath(order.ref)} />
      ) : null}

      {paid ? (
        <InvoicingLink
          to={invoicePath({ kind: "order", ref: order.ref })}
          testId="order-invoice-link"
        />
      ) : null}

      {cancelled ? (
        <Form method="post" className="mb-8 print:hidden">
          <SubmitButton name="intent" value={ORDER_AGAIN_INTENT} size="lg">
            {t("confirmation.newOrder")}
          </SubmitButton>
        </Form>
      ) : null}

      <div className="grid gap-8 lg:grid-cols-2">
        <section
          aria-labelledby="order-lines"
          className="rounded-lg border border-slate-200 bg-white p-5"
        >
          <h2 id="order-lines" className="text-xl font-bold text-slate-900">
            {t("confirmation.linesHeading")}
          </h2>
          <ul className="mt-3 divide-y divide-slate-200" data-testid="order-lines">
            {order.lines.map((line) => (
              <li key={line.planId} className="flex justify-between gap-4 py-2">
                <span className="min-w-0">
                  {line.quantity} × {line.planName} ({formatPrice(line.unitPrice)})
                </span>
                <span className="font-medium">{formatPrice(line.lineTotal)}</span>
              </li>
            ))}
          </ul>
          <p className="mt-3 flex justify-between border-t border-slate-300 pt-3 text-lg font-bold">
            <span>{t("cart.total")}</span>
            <span>{formatTotal(order.total)}</span>
          </p>
          {paid && payment?.cardBrand && payment.cardLast4 ? (
            <p className="mt-2 text-sm text-slate-700">
              {t("confirmation.paidWith", {
                brand: t(`payment.brands.${payment.cardBrand}`),
                last4: payment.cardLast4,
              })}
            </p>
          ) : null}
        </section>
        <div className="space-y-8">
          <section
            aria-labelledby="order-delivery"
            className="rounded-lg border border-slate-200 bg-white p-5"
          >
            <h2 id="order-delivery" className="text-xl font-bold text-slate-900">
              {t("confirmation.deliveryHeading")}
            </h2>
            <p className="mt-3 text-slate-800" data-testid="order-sim-type">
              {t("confirmation.simType")}: {t(`confirmation.simTypes.${order.simType}`)}
            </p>
            {delivery ? (
              <address className="mt-3 not-italic text-slate-800" data-testid="order-delivery">
                {order.customer.fullName}
                <br />
                {delivery.street} {delivery.exteriorNumber}
                {delivery.interiorNumber
                  ? `, ${t("confirmation.interior", { number: delivery.interiorNumber })}`
                  : ""}
                <br />
                {delivery.neighborhood},{" "}
                {t("confirmation.postalCode", { code: delivery.postalCode })}
                <br />
                {delivery.municipality}, {t(`states.${delivery.state}`)}
              </address>
            ) : null}
            {order.shipment ? (
              <div className="mt-3 text-slate-800" data-testid="order-shipment">
                <p>{t("confirmation.shipment", { date: formatDate(order.shipment.shippedAt) })}</p>
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
            <h3 className="mt-4 font-bold text-slate-900">{t("confirmation.contactHeading")}</h3>
            <p className="text-slate-800 wrap-anywhere">
              {order.customer.email} · {order.customer.phoneNumber}
            </p>
          </section>
          {paid ? (
            <section
              aria-labelledby="order-next"
              className="rounded-lg border border-slate-200 bg-white p-5"
            >
              <h2 id="order-next" className="text-xl font-bold text-slate-900">
                {t("confirmation.nextStepsHeading")}
              </h2>
              <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-800">
                <li>{t("confirmation.nextSteps.email", { email: order.customer.email })}</li>
                <li>
                  {delivery
                    ? t("confirmation.nextSteps.deliveryPhysical", {
                        cityMin: PHYSICAL_SIM_DELIVERY.cities.minDays,
                        cityMax: PHYSICAL_SIM_DELIVERY.cities.maxDays,
                        elsewhereMax: PHYSICAL_SIM_DELIVERY.elsewhere.maxDays,
                      })
                    : t("confirmation.nextSteps.deliveryEsim")}
                </li>
                <li>
                  {t("confirmation.nextSteps.activate", {
                    minutes: LINE_ACTIVATION.usualMinutes,
                    hours: LINE_ACTIVATION.maxHours,
                  })}
                </li>
                <li>{t("confirmation.nextSteps.help")}</li>
              </ol>
            </section>
          ) : null}
        </div>
      </div>
      <p className="mt-8">
        <Link to="/plans" className="font-medium text-secondary underline underline-offset-4">
          {t("confirmation.backToPlans")}
        </Link>
      </p>
    </>
  );
}
