import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { LineCards } from "~/components/line/line-card";
import { LineCodeForm, LineNumberForm } from "~/components/line/line-code-forms";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { loadAddLineForm, submitAddLine } from "~/line/add-line-request.server";
import { loadAccountLines } from "~/line/line-pages.server";
import { formatLineNumber } from "~/line/line-view";
import { requestContext } from "~/lib/router-context.server";

/** A function of its loaders' data alone (the form key is a view token): the render memo may keep it. */
export const handle = { i18n: ["line"], renderMemo: true };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** Every line of the account at a glance, and adding one the customer already has. */
export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  const [lines, addLine] = await Promise.all([
    loadAccountLines(context, customer),
    loadAddLineForm(context, customer),
  ]);
  return { title: getFixedT("line")("list.title"), lines, addLine };
}

export async function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return submitAddLine(context, request, customer);
}

export default function AccountLinesPage() {
  const { lines, addLine } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation("line");
  const { idempotencyKey } = addLine;
  // A code that can no longer be typed keeps its form, with why, until a new one is asked for.
  const codeFor = addLine.pending?.number ?? (answer?.form === "code" ? answer.number : undefined);
  return (
    <>
      <PageHeader title={t("list.heading")}>{t("list.intro")}</PageHeader>
      {lines.length ? (
        <LineCards lines={lines} />
      ) : (
        <p className="text-slate-800">{t("list.empty")}</p>
      )}
      <section className="mt-10" aria-labelledby="add-line" id="agregar">
        <h2 id="add-line" className="text-2xl font-bold text-slate-900">
          {t("add.heading")}
        </h2>
        <p className="mt-2 mb-4 max-w-3xl text-slate-800">{t("add.intro")}</p>
        {codeFor ? (
          <LineCodeForm
            idempotencyKey={idempotencyKey}
            codeHint={t("add.code_hint")}
            lastResult={answer?.form === "code" ? answer.result : undefined}
            number={codeFor}
            sendNumber
            lead={t("add.codeSent", { number: formatLineNumber(codeFor) })}
            submitLabel={t("add.confirm")}
            pendingLabel={t("add.confirming")}
          >
            <h3 className="pt-4 text-xl font-bold text-slate-900">{t("add.otherNumber")}</h3>
          </LineCodeForm>
        ) : null}
        <div className={codeFor ? "mt-4" : ""}>
          <LineNumberForm
            idempotencyKey={idempotencyKey}
            lastResult={answer?.form === "number" ? answer.result : undefined}
            submitLabel={t("add.submit")}
            pendingLabel={t("add.submitting")}
          />
        </div>
      </section>
      <p className="mt-10">
        <Link to="/my-account" className="font-medium text-secondary underline underline-offset-4">
          {t("list.backToAccount")}
        </Link>
      </p>
    </>
  );
}
