import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import { TopupForm } from "~/components/topup/topup-form";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { shareMeta } from "~/lib/meta";
import { loadTopupForm, submitTopup } from "~/topup/topup-request.server";
import { requestContext } from "~/lib/router-context.server";

// The payment methods are worded once, in the commerce messages. A function of its loaders' data
// alone (the form key is a view token): the render memo may keep it (server/html-caches.ts).
export const handle = { i18n: ["topup", "commerce"], renderMemo: true, query: ["numero"] };

export const meta = shareMeta;

export { headers } from "~/lib/route-headers";

/**
 * Top up any line, no account needed. A signed-in customer gets their saved lines too, and the
 * top-up appears in their history.
 */
export async function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return {
    title: getFixedT()("pages.topUp.title"),
    description: getFixedT()("pages.topUp.description"),
    ...(await loadTopupForm(context, getCustomer(context), url)),
  };
}

export async function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitTopup(context, request, getCustomer(context));
}

export default function TopUpPage() {
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
