import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
} from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { TopupForm } from "~/components/topup/topup-form";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { loadTopupForm, submitTopup } from "~/topup/topup-request.server";
import { requestContext } from "~/lib/router-context.server";

// The payment methods are worded once, in the commerce messages. A function of its loaders' data
// alone (the form key is a view token): the render memo may keep it (server/html-caches.ts).
export const handle = { i18n: ["topup", "commerce"], renderMemo: true, query: ["numero"] };

export const meta = titleMeta;

export { headers } from "~/lib/route-headers";

/** The signed-in customer's top-up: their saved lines first; the top-up joins their history. */
export async function loader({ request, context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return {
    title: getFixedT()("pages.topUp.title"),
    ...(await loadTopupForm(context, customer, url)),
  };
}

export async function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return submitTopup(context, request, customer);
}

export default function AccountTopUpPage() {
  const form = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation("topup");
  return (
    <>
      <PageHeader title={t("common:pages.topUp.heading")}>
        {t(form.signedIn ? "form.introSignedIn" : "form.intro")}
      </PageHeader>
      <TopupForm {...form} lastResult={lastResult} />
    </>
  );
}
