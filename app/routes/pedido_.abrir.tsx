import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  Form,
  Link,
  data,
  useActionData,
  useLoaderData,
} from "react-router";
import { peekOrderLink } from "~/checkout/order-links.server";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { submitOrderLink } from "~/checkout/order-link-request.server";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["commerce"] };

export const meta = titleMeta;

/**
 * The link's secret is in this page's address: no other site learns it from a Referer (and not
 * `no-referrer`, which makes the browser send `Origin: null` with the form, refused as cross-site).
 */
export const headers: HeadersFunction = () => ({ "Referrer-Policy": "same-origin" });

/**
 * A one-time order link from an e-mail (decision 0082). Opening the address uses nothing: mail
 * scanners follow links. The button does: it opens the order in this browser, once.
 */
export async function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const token = url.searchParams.get("clave") ?? "";
  const link = await peekOrderLink(context.db, token);
  const title = getFixedT("commerce")("lookup.link.title");
  if (!link) return data({ title, folio: null, token: "" }, { status: 410 });
  return { title, folio: link.folio, token };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitOrderLink(context, request);
}

export default function OrderLinkPage() {
  const { folio, token } = useLoaderData<typeof loader>();
  const spent = useActionData<typeof action>()?.spent === true;
  const { t } = useTranslation("commerce");
  if (!folio || spent) {
    return (
      <>
        <PageHeader title={t("lookup.link.invalidHeading")}>{t("lookup.link.invalid")}</PageHeader>
        <p>
          <Link to="/pedido" className={buttonClass({ size: "lg" })}>
            {t("lookup.link.askAgain")}
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <PageHeader title={t("lookup.link.heading", { folio })}>{t("lookup.link.lead")}</PageHeader>
      <Form method="post" className="max-w-xl">
        <input type="hidden" name="clave" value={token} />
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("lookup.link.opening")}>
          {t("lookup.link.open")}
        </SubmitButton>
      </Form>
    </>
  );
}
