import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Form,
  data,
  useActionData,
  useLoaderData,
} from "react-router";
import { formatTotal } from "~/catalog/money";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { formatDateTime } from "~/lib/dates";
import { formatClabe } from "~/payments/clabe";
import type { PaymentMethod } from "~/payments/provider";
import { createCardSchema, TEST_CARDS } from "~/payments/sandbox/card-rules";
import {
  findSandboxCheckout,
  sandboxPageRefused,
  submitSandboxPayment,
} from "~/payments/sandbox/sandbox-page-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["commerce"] };

export const meta = titleMeta;

export async function loader({ request, params, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const title = getFixedT("commerce")("sandbox.title");
  if (sandboxPageRefused(context, params.id, request)) {
    return data({ title, checkout: null }, { status: 403 });
  }
  const checkout = await findSandboxCheckout(context, params.id);
  return {
    title,
    checkout: {
      amount: checkout.amount,
      description: checkout.description,
      open: checkout.status === "open",
      returnUrl: checkout.return_url,
      method: checkout.method as PaymentMethod,
      reference: checkout.reference,
      clabe: checkout.clabe ? formatClabe(checkout.clabe) : null,
      expires: checkout.expires_at ? formatDateTime(checkout.expires_at) : null,
      savesCard: checkout.save_for_customer !== null,
    },
  };
}

export function action({ request, params, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSandboxPayment(context, request, params.id);
}

const cardSchema = createCardSchema();

export default function SandboxPaymentPage() {
  const { checkout } = useLoaderData<typeof loader>();
  return checkout ? <SandboxCheckoutPage checkout={checkout} /> : <NotThisBrowser />;
}

/** What a browser the store did not send to this payment sees (production only). */
function NotThisBrowser() {
  const { t } = useTranslation("commerce");
  return (
    <div className="mx-auto max-w-2xl" data-testid="sandbox-not-this-browser">
      <p className="text-sm font-semibold text-error">
        {t("common:errors.status", { status: 403 })}
      </p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900">
        {t("sandbox.notThisBrowser.heading")}
      </h1>
      <p className="mt-4 text-lg">{t("sandbox.notThisBrowser.message")}</p>
      <a href="/" className={`mt-8 ${buttonClass()}`}>
        {t("sandbox.backToStore")}
      </a>
    </div>
  );
}

type LoadedCheckout = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["checkout"]>;

function SandboxCheckoutPage({ checkout }: { checkout: LoadedCheckout }) {
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation("commerce");
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(cardSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cardSchema }),
  });
  const { field, summary } = labelFields(fields, {
    card_number: t("sandbox.fields.card_number"),
    card_expiry: t("sandbox.fields.card_expiry"),
    card_cvc: t("sandbox.fields.card_cvc"),
    cardholder_name: t("sandbox.fields.cardholder_name"),
  });

  return (
    <div className="mx-auto max-w-2xl">
      <p
        className="mb-6 rounded border-2 border-dashed border-amber-700 bg-amber-50 px-4 py-3 font-semibold text-amber-900"
        data-testid="sandbox-banner"
      >
        {t("sandbox.banner")}
      </p>
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">
        {t("sandbox.heading")}
      </h1>
      <dl className="mt-4 grid gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-700">{t("sandbox.merchant")}</dt>
          <dd className="font-semibold">{t("sandbox.merchantName")}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t("sandbox.concept")}</dt>
          <dd className="font-semibold">{checkout.description}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t("sandbox.amount")}</dt>
          <dd className="text-xl font-bold" data-testid="sandbox-amount">
            {formatTotal(checkout.amount)}
          </dd>
        </div>
      </dl>

      {checkout.method !== "card" ? (
        <SandboxSimulator checkout={checkout} />
      ) : checkout.open ? (
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4" autoComplete="off">
          <h2 className="text-xl font-bold text-slate-900">{t("sandbox.cardHeading")}</h2>
          <ErrorSummary refused={refusal(lastResult)} formErrors={form.errors} fields={summary} />
          <Field {...field.card_number} inputMode="numeric" autoComplete="cc-number" />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field {...field.card_expiry} inputMode="numeric" autoComplete="cc-exp" />
            <Field {...field.card_cvc} inputMode="numeric" autoComplete="cc-csc" />
          </div>
          <Field {...field.cardholder_name} autoComplete="cc-name" />
          {checkout.savesCard ? (
            <p className="text-slate-800" data-testid="sandbox-saves-card">
              {t("sandbox.savesCard")}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-4">
            <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("sandbox.paying")}>
              {t("sandbox.pay", { amount: formatTotal(checkout.amount) })}
            </SubmitButton>
            <a
              href={checkout.returnUrl}
              className="font-medium text-secondary underline underline-offset-4"
            >
              {t("sandbox.cancel")}
            </a>
          </div>
        </Form>
      ) : (
        <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
          <p>{t("sandbox.closed")}</p>
          <a
            href={checkout.returnUrl}
            className="mt-2 inline-block font-medium text-secondary underline underline-offset-4"
          >
            {t("sandbox.backToStore")}
          </a>
        </div>
      )}

      {checkout.method === "card" ? <TestCards /> : null}
    </div>
  );
}

function TestCards() {
  const { t } = useTranslation("commerce");
  const testCards = [
    { number: TEST_CARDS.approved, outcome: t("sandbox.testCards.approved") },
    { number: TEST_CARDS.declined, outcome: t("sandbox.testCards.declined") },
    { number: TEST_CARDS.insufficientFunds, outcome: t("sandbox.testCards.insufficientFunds") },
    {
      number: TEST_CARDS.authenticationRequired,
      outcome: t("sandbox.testCards.authenticationRequired"),
    },
    { number: TEST_CARDS.declinesLater, outcome: t("sandbox.testCards.declinesLater") },
  ];
  return (
    <>
      <section
        aria-labelledby="sandbox-test-cards"
        className="mt-8 rounded-lg border border-slate-200 bg-white p-4"
      >
        <h2 id="sandbox-test-cards" className="text-lg font-bold text-slate-900">
          {t("sandbox.testCardsHeading")}
        </h2>
        <p className="mt-1 text-sm text-slate-700">{t("sandbox.testCardsIntro")}</p>
        <ul className="mt-3 space-y-1">
          {testCards.map((card) => (
            <li key={card.number}>
              <code className="font-mono font-semibold">
                {card.number.replace(/(\d{4})(?=\d)/g, "$1 ")}
              </code>{" "}
              — {card.outcome}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** The provider's side of a voucher or a transfer: what the store or the bank would report. */
function SandboxSimulator({ checkout }: { checkout: LoadedCheckout }) {
  const { t } = useTranslation("commerce");
  const method = checkout.method === "spei" ? "spei" : "cash";
  const fact = (label: string, value: string | null, testId: string) =>
    value ? (
      <div>
        <dt className="text-sm text-slate-700">{label}</dt>
        <dd className="break-all font-mono font-semibold" data-testid={testId}>
          {value}
        </dd>
      </div>
    ) : null;
  return (
    <section aria-labelledby="sandbox-simulator" className="mt-6 space-y-4">
      <h2 id="sandbox-simulator" className="text-xl font-bold text-slate-900">
        {t(`sandbox.simulatorHeading.${method}`)}
      </h2>
      <dl className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3">
        {fact(t("payment.instructions.clabe"), checkout.clabe, "sandbox-clabe")}
        {fact(t("payment.instructions.reference"), checkout.reference, "sandbox-reference")}
        {fact(t("payment.instructions.expires"), checkout.expires, "sandbox-expires")}
      </dl>
      {checkout.open ? (
        <Form method="post" className="space-y-3">
          <p className="text-slate-800">{t("sandbox.simulatorIntro")}</p>
          <div className="flex flex-wrap gap-4">
            <SubmitButton name="intent" value="paid" width="blockOnPhone">
              {t(`sandbox.simulatePaid.${method}`)}
            </SubmitButton>
            <SubmitButton name="intent" value="expired" variant="quiet" width="blockOnPhone">
              {t("sandbox.simulateExpired")}
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p>{t("sandbox.expired")}</p>
        </div>
      )}
      <a
        href={checkout.returnUrl}
        className="inline-block font-medium text-secondary underline underline-offset-4"
      >
        {t("sandbox.backToStore")}
      </a>
    </section>
  );
}
