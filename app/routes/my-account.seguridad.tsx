import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
} from "react-router";
import { loadAccountSecurity, submitAccountSecurity } from "~/auth/account-security-request.server";
import { requireCustomer } from "~/auth/session.server";
import {
  PasskeysCard,
  RememberedDevicesCard,
  SignOutEverywhereCard,
} from "~/components/account/security-cards";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

export async function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const signedIn = requireCustomer(context, request);
  return {
    title: getFixedT("auth")("security.title"),
    ...(await loadAccountSecurity(context, signedIn)),
  };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitAccountSecurity(context, request, requireCustomer(context, request));
}

export default function AccountSecurityPage() {
  const { t } = useTranslation("auth");
  const { passkeysEnabled, devicesEnabled, passkeys, devices } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const refused = refusal(lastResult as { status?: string } | undefined);
  const formErrors =
    (lastResult as { error?: Record<string, string[] | null> } | undefined)?.error?.[""] ??
    undefined;
  return (
    <>
      <PageHeader title={t("security.heading")} />
      <ErrorSummary refused={refused} formErrors={formErrors} />
      <div className="grid gap-6 md:grid-cols-2">
        {passkeysEnabled ? <PasskeysCard passkeys={passkeys} /> : null}
        {devicesEnabled ? <RememberedDevicesCard devices={devices} /> : null}
        <SignOutEverywhereCard />
      </div>
    </>
  );
}
