import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { NIP_VALIDITY_DAYS, PORTABILITY_MAX_HOURS } from "~/catalog/terms";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  Link,
  data,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { ErrorSummary } from "~/components/ui/error-summary";
import { Field, SelectField } from "~/components/ui/form-field";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { legalDocumentPath, type LegalDocument } from "~/lib/external-links";
import { shareMeta } from "~/lib/meta";
import { CARRIERS } from "~/portability/carriers";
import { formatDate, formatDateTime } from "~/lib/dates";
import type { TFunction } from "~/i18n/translate";
import { carrierLabel } from "~/portability/display";
import { maskPhoneNumber } from "~/portability/numbers";
import { portabilitySchema, statusLookupSchema } from "~/portability/portability-schema";
import { LOOKUP_LIMITS } from "~/portability/lookup-limits";
import {
  isOwnFormKey,
  portabilityFormKey,
  readSubmittedRequests,
  rememberPortabilityRequest,
} from "~/portability/request-access.server";
import type { PortabilityRequest } from "~/portability/requests.server";

export const handle = { i18n: ["portability"], query: ["solicitud", "folio", "numero"] };

export const meta = shareMeta;

/** What the page shows of a request: the line masked, never the NIP. */
interface RequestView {
  folio: string;
  status: PortabilityRequest["status"];
  scheduledFor: string | null;
  rejectionReason: string | null;
  line: string;
  carrier: string;
  createdAt: string;
  /** Only on the page right after submitting, in the browser that submitted. */
  email: string | null;
}

function toView(request: PortabilityRequest, withEmail: boolean): RequestView {
  return {
    folio: request.folio,
    status: request.status,
    scheduledFor: request.scheduledFor,
    rejectionReason: request.rejectionReason,
    line: maskPhoneNumber(request.phoneNumber),
    carrier: request.currentCarrier,
    createdAt: request.createdAt,
    email: withEmail ? request.email : null,
  };
}

type LookupOutcome = "invalid" | "found" | "not_found" | "unavailable" | "limited";
const LOOKUP_STATUS: Record<LookupOutcome, number> = {
  invalid: 400,
  found: 200,
  not_found: 404,
  unavailable: 503,
  limited: 429,
};

function logFailure(context: AppLoadContext, msg: string, error: unknown) {
  // The error only: the form values (a NIP among them) never reach a log line.
  context.logger.error({
    msg,
    requestId: context.requestId,
    error: error instanceof Error ? `${error.name}: ${error.message}` : "unknown",
  });
}

async function lookUp(context: AppLoadContext, params: URLSearchParams) {
  const submission = parseWithZod(params, { schema: statusLookupSchema });
  if (submission.status !== "success") {
    return { result: submission.reply(), outcome: "invalid" as LookupOutcome, request: null };
  }
  // Folios are sequential: without a limit, someone who knows a number could try them all.
  try {
    const verdict = await context.rateLimiter.consume([
      { key: `portability-lookup-ip:${context.clientAddressKey}`, rule: LOOKUP_LIMITS.perIp },
      { key: `portability-lookup-line:${submission.value.numero}`, rule: LOOKUP_LIMITS.perLine },
      {
        key: `portability-lookup-line-day:${submission.value.numero}`,
        rule: LOOKUP_LIMITS.perLinePerDay,
      },
    ]);
    if (!verdict.allowed) {
      context.logger.warn({ requestId: context.requestId }, "portability lookups over the limit");
      return { result: submission.reply(), outcome: "limited" as LookupOutcome, request: null };
    }
    const found = await context.portability.lookup(submission.value.folio, submission.value.numero);
    return {
      result: submission.reply(),
      outcome: (found ? "found" : "not_found") as LookupOutcome,
      request: found ? toView(found, false) : null,
    };
  } catch (error) {
    logFailure(context, "portability lookup failed", error);
    return { result: submission.reply(), outcome: "unavailable" as LookupOutcome, request: null };
  }
}

/**
 * `?solicitud=<folio>`: the request this browser just submitted (a sealed cookie lists its id).
 * `?folio=…&numero=…`: the status lookup, a plain GET form.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const submittedFolio = url.searchParams.get("solicitud")?.trim().toUpperCase() || null;
  let submitted: RequestView | null = null;
  if (submittedFolio) {
    try {
      const found = await context.portability.findSubmitted(
        submittedFolio,
        readSubmittedRequests(context),
      );
      submitted = found ? toView(found, true) : null;
    } catch (error) {
      logFailure(context, "portability result failed", error);
    }
  }
  const lookup =
    url.searchParams.has("folio") || url.searchParams.has("numero")
      ? await lookUp(context, url.searchParams)
      : null;
  return data(
    {
      title: getFixedT()("pages.portability.title"),
      description: getFixedT()("pages.portability.description"),
      idempotencyKey: portabilityFormKey(context),
      submitted,
      submittedElsewhere: submittedFolio && !submitted ? submittedFolio : null,
      lookup,
    },
    { status: lookup ? LOOKUP_STATUS[lookup.outcome] : 200 },
  );
}

type Problem = { kind: "duplicate" | "staleForm" | "unavailable" };

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: portabilitySchema });
  // The NIP is never sent back: the customer types it again.
  const hideFields = ["nip"];
  const refuse = (status: number, problem: Problem | null) => {
    // A key this browser cannot use is replaced: sending the form once more then works.
    const stale = problem?.kind === "staleForm";
    return data(
      {
        result: submission.reply({
          hideFields: stale ? [...hideFields, "idempotency_key"] : hideFields,
          ...(problem ? { formErrors: [`portability:errors.${problem.kind}`] } : {}),
        }),
        problem,
        // New for every reply, so the NIP field below starts empty each time.
        replyId: context.newViewToken(),
        idempotencyKey: stale ? portabilityFormKey(context) : null,
      },
      { status },
    );
  };
  if (submission.status !== "success") return refuse(400, null);

  let outcome;
  try {
    // A key this browser was not given (copied from another one, or signed with a secret this
    // browser no longer holds) opens nothing: the form comes back with a key of its own.
    if (!isOwnFormKey(context, submission.value.idempotency_key)) {
      return refuse(409, { kind: "staleForm" });
    }
    outcome = await context.portability.submit(submission.value);
  } catch (error) {
    logFailure(context, "portability request not saved", error);
    return refuse(503, { kind: "unavailable" });
  }
  if (outcome.kind === "open_request_exists") return refuse(409, { kind: "duplicate" });
  const { folio, id } = outcome.request;
  rememberPortabilityRequest(context, id);
  return redirect(`/portabilidad?solicitud=${encodeURIComponent(folio)}`, { status: 303 });
}

function Explanation() {
  const { t } = useTranslation("portability");
  return (
    <div className="space-y-8 lg:col-span-2">
      <section aria-labelledby="como-funciona">
        <h2 id="como-funciona" className="text-xl font-bold text-slate-900">
          {t("steps.heading")}
        </h2>
        <ol className="mt-3 list-decimal space-y-3 pl-6 text-slate-800">
          <li>{t("steps.nip", { days: NIP_VALIDITY_DAYS })}</li>
          <li>{t("steps.form")}</li>
          <li>{t("steps.wait", { hours: PORTABILITY_MAX_HOURS })}</li>
          <li>{t("steps.activate")}</li>
        </ol>
      </section>
      <section aria-labelledby="antes-de-empezar">
        <h2 id="antes-de-empezar" className="text-xl font-bold text-slate-900">
          {t("facts.heading")}
        </h2>
        <ul className="mt-3 list-disc space-y-3 pl-6 text-slate-800">
          <li>{t("facts.balance")}</li>
          <li>{t("facts.debts")}</li>
          <li>{t("facts.nipValidity", { days: NIP_VALIDITY_DAYS })}</li>
          <li>{t("facts.free")}</li>
        </ul>
      </section>
    </div>
  );
}

function RequestForm({ idempotencyKey }: { idempotencyKey: string }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("portability");
  const [form, fields] = useForm({
    id: "solicitud-portabilidad",
    lastResult: actionData?.result,
    constraint: getZodConstraint(portabilitySchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: portabilitySchema }),
  });
  const problem = actionData?.problem ?? null;
  const refused =
    actionData && (problem || actionData.result.status === "error") ? actionData : null;
  const pdfLink = (slug: LegalDocument, label: string) => (
    <a
      href={legalDocumentPath(slug)}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-secondary underline underline-offset-4"
    >
      {label} <span className="sr-only">{t("form.opensPdf")}</span>
    </a>
  );

  return (
    <section aria-labelledby="solicitud" className="lg:col-span-3">
      <h2 id="solicitud" className="text-2xl font-bold text-slate-900">
        {t("form.heading")}
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
        {/* A refusal of the whole request (a duplicate) or of its fields, focused with JavaScript. */}
        <ErrorSummary
          refused={refused}
          formErrors={form.errors}
          heading="portability:form.errorSummary"
          testId={problem ? "portability-problem" : undefined}
          fields={[
            { meta: fields.phone_number, label: t("form.phoneNumber") },
            { meta: fields.nip, label: t("form.nip") },
            { meta: fields.full_name, label: t("form.fullName") },
            { meta: fields.email, label: t("form.email") },
            { meta: fields.curp, label: t("form.curp") },
            { meta: fields.current_carrier, label: t("form.currentCarrier") },
            { meta: fields.iccid, label: t("form.iccid") },
            { meta: fields.accept_terms, label: t("form.acceptTermsLabel") },
          ]}
        >
          {problem?.kind === "duplicate" ? (
            <a
              href="#consulta"
              className="mt-1 inline-block font-semibold underline underline-offset-4"
            >
              {t("result.lookupLink")}
            </a>
          ) : null}
        </ErrorSummary>
        <input
          type="hidden"
          name={fields.idempotency_key.name}
          value={
            actionData?.idempotencyKey ?? fields.idempotency_key.initialValue ?? idempotencyKey
          }
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            meta={fields.phone_number}
            type="tel"
            label={t("form.phoneNumber")}
            hint={t("form.phoneNumberHint")}
            autoComplete="tel-national"
            inputMode="tel"
          />
          {/* A new key after every reply: the NIP field starts empty, as the hint says. */}
          <div key={actionData?.replyId ?? "first"}>
            <Field
              meta={fields.nip}
              label={t("form.nip")}
              hint={actionData ? t("form.nipRetype") : t("form.nipHint")}
              autoComplete="one-time-code"
              inputMode="numeric"
            />
          </div>
        </div>
        <Field meta={fields.full_name} label={t("form.fullName")} autoComplete="name" />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field meta={fields.email} type="email" label={t("form.email")} autoComplete="email" />
          <Field meta={fields.curp} label={t("form.curp")} hint={t("form.curpHint")} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            meta={fields.current_carrier}
            label={t("form.currentCarrier")}
            placeholder={t("form.chooseCarrier")}
            options={CARRIERS.map((carrier) => ({
              value: carrier.id,
              label: carrierLabel(carrier.id, t("form.otherCarrier")),
            }))}
          />
          <Field
            meta={fields.iccid}
            label={t("form.iccid")}
            hint={t("form.iccidHint")}
            inputMode="numeric"
          />
        </div>
        <Checkbox meta={fields.accept_terms}>
          {t("form.acceptTermsBefore")} {pdfLink("portabilidad", t("form.portabilityPolicy"))}{" "}
          {t("form.acceptTermsAnd")} {pdfLink("aviso-de-privacidad", t("form.privacyNotice"))}
          {t("form.acceptTermsAfter")}
        </Checkbox>
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("form.submitting")}>
          {t("form.submit")}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** "Programada para el 3 de diciembre de 2026", "Rechazada: <motivo>", or the status alone. */
function statusText(request: RequestView, t: TFunction): string {
  if (request.status === "in_progress" && request.scheduledFor) {
    // Noon in Mexico City: the date reads the same whatever the time zone.
    return t("status.scheduledFor", { date: formatDate(`${request.scheduledFor}T18:00:00.000Z`) });
  }
  if (request.status === "rejected" && request.rejectionReason) {
    return t("status.rejectedBecause", { reason: request.rejectionReason });
  }
  return t(`status.${request.status}`);
}

function RequestDetails({ request, testId }: { request: RequestView; testId: string }) {
  const { t } = useTranslation("portability");
  const rows: Array<[string, string, string]> = [
    [t("result.folio"), request.folio, "portability-folio"],
    [t("result.status"), statusText(request, t), "portability-status"],
    [t("result.line"), request.line, "portability-line"],
    [
      t("result.carrier"),
      carrierLabel(request.carrier, t("form.otherCarrier")),
      "portability-carrier",
    ],
    [t("result.createdAt"), formatDateTime(request.createdAt), "portability-created"],
  ];
  return (
    <dl data-testid={testId} className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
      {rows.map(([label, value, id]) => (
        <div key={id} className="contents">
          <dt className="font-semibold text-slate-700">{label}</dt>
          <dd className="min-w-0 wrap-anywhere text-slate-900" data-testid={id}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function SubmittedRequest({ request }: { request: RequestView }) {
  const { t } = useTranslation("portability");
  return (
    <section
      aria-labelledby="solicitud-recibida"
      className="rounded-lg border border-primary bg-primary-soft p-6"
    >
      <h2 id="solicitud-recibida" className="text-2xl font-bold text-slate-900">
        {t("result.heading")}
      </h2>
      <RequestDetails request={request} testId="portability-result" />
      <h3 className="mt-6 text-lg font-bold text-slate-900">{t("result.nextSteps")}</h3>
      <ol className="mt-2 list-decimal space-y-2 pl-6 text-slate-800">
        <li>{t("result.nextStep1")}</li>
        <li>
          {t("result.nextStep2", { email: request.email ?? "", hours: PORTABILITY_MAX_HOURS })}
        </li>
        <li>{t("result.nextStep3")}</li>
      </ol>
      <Link
        to="/portabilidad"
        className="mt-6 inline-block font-semibold text-secondary underline underline-offset-4"
      >
        {t("result.another")}
      </Link>
    </section>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function StatusLookup({
  lookup,
  folio,
}: {
  lookup: LoaderData["lookup"];
  /** Fills the folio in when the page knows it. */
  folio: string | null;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation("portability");
  const [form, fields] = useForm({
    id: "consulta-portabilidad",
    lastResult: lookup?.result as SubmissionResult<string[]> | undefined,
    defaultValue: folio ? { folio } : undefined,
    constraint: getZodConstraint(statusLookupSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: statusLookupSchema }),
  });
  const searching =
    navigation.state === "loading" &&
    navigation.formMethod === "GET" &&
    navigation.location.pathname === "/portabilidad";
  return (
    <section
      id="consulta"
      aria-labelledby="consulta-titulo"
      className="mt-12 border-t border-slate-200 pt-8"
    >
      <h2 id="consulta-titulo" className="text-2xl font-bold text-slate-900">
        {t("lookup.heading")}
      </h2>
      <Form
        method="get"
        action="/portabilidad#consulta"
        preventScrollReset
        {...getFormProps(form)}
        className="mt-4 grid max-w-3xl items-start gap-5 sm:grid-cols-[1fr_1fr_auto]"
      >
        <Field meta={fields.folio} label={t("lookup.folio")} hint={t("lookup.folioHint")} />
        <Field meta={fields.numero} type="tel" label={t("lookup.phoneNumber")} inputMode="tel" />
        <SubmitButton
          variant="secondary"
          width="blockOnPhone"
          pending={searching}
          pendingLabel={t("lookup.submitting")}
          className="sm:mt-12"
        >
          {t("lookup.submit")}
        </SubmitButton>
      </Form>
      {lookup?.outcome === "found" && lookup.request ? (
        <div className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-5" role="status">
          <h3 className="text-lg font-bold text-slate-900">{t("lookup.resultHeading")}</h3>
          <RequestDetails request={lookup.request} testId="portability-lookup" />
        </div>
      ) : null}
      {lookup && lookup.outcome !== "found" && lookup.outcome !== "invalid" ? (
        <Alert className="mt-6">{t(`lookup.${lookup.outcome}`)}</Alert>
      ) : null}
    </section>
  );
}

export default function PortabilityPage() {
  const { submitted, submittedElsewhere, lookup, idempotencyKey } = useLoaderData<typeof loader>();
  const { t } = useTranslation("portability");
  const prefill = submitted?.folio ?? submittedElsewhere;
  return (
    <>
      <PageHeader title={t("heading")}>{t("intro", { hours: PORTABILITY_MAX_HOURS })}</PageHeader>
      {submitted ? (
        <SubmittedRequest request={submitted} />
      ) : (
        <>
          {submittedElsewhere ? (
            <Alert tone="info" className="mb-8">
              {t("result.onlyHere")}
            </Alert>
          ) : null}
          <div className="grid gap-10 lg:grid-cols-5">
            <Explanation />
            <RequestForm idempotencyKey={idempotencyKey} />
          </div>
        </>
      )}
      {/* Remounted when the folio to fill in changes: a form reads its defaults once. */}
      <StatusLookup key={prefill ?? ""} lookup={lookup} folio={prefill} />
    </>
  );
}
