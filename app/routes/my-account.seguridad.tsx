import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { loadAccountSecurity, submitAccountSecurity } from "~/auth/account-security-request.server";
import { requireCustomer } from "~/auth/session.server";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const signedIn = requireCustomer(context, request);
  return {
    title: getFixedT("auth")("security.title"),
    ...(await loadAccountSecurity(context, signedIn)),
  };
}

export function action({ request, context }: ActionFunctionArgs) {
  return submitAccountSecurity(context, request, requireCustomer(context, request));
}

function When({ iso }: { iso: string | null }) {
  const { t } = useTranslation("auth");
  return <>{iso ? formatDateTime(iso) : t("security.never")}</>;
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
        {passkeysEnabled ? (
          <section
            className="rounded-lg border border-slate-200 p-6"
            aria-labelledby="security-passkeys"
          >
            <h2 id="security-passkeys" className="text-xl font-bold">
              {t("security.passkeysHeading")}
            </h2>
            <p className="mt-2 text-slate-700">{t("security.passkeysIntro")}</p>
            {passkeys === null ? (
              <p role="status" className="mt-4 text-error">
                {t("security.unavailable")}
              </p>
            ) : passkeys.length === 0 ? (
              <p className="mt-4" data-testid="passkeys-empty">
                {t("security.passkeysEmpty")}
              </p>
            ) : (
              <ul className="mt-4 space-y-4" data-testid="passkeys">
                {passkeys.map((passkey) => (
                  <li
                    key={passkey.id}
                    className="rounded border border-slate-200 p-4"
                    data-testid="passkey"
                  >
                    <p className="font-semibold wrap-anywhere">{passkey.name}</p>
                    <dl className="mt-1 text-sm text-slate-700">
                      <div>
                        <dt className="inline">{t("security.created")}: </dt>
                        <dd className="inline">
                          <When iso={passkey.createdAt} />
                        </dd>
                      </div>
                      <div>
                        <dt className="inline">{t("security.lastUsed")}: </dt>
                        <dd className="inline" data-testid="passkey-last-used">
                          <When iso={passkey.lastUsedAt} />
                        </dd>
                      </div>
                    </dl>
                    <Form method="post" className="mt-2">
                      <input type="hidden" name="credential_id" value={passkey.id} />
                      <SubmitButton
                        name="intent"
                        value="delete-passkey"
                        variant="dangerLink"
                        pendingLabel={t("security.deleting")}
                      >
                        {t("security.deletePasskey", { name: passkey.name })}
                      </SubmitButton>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
            <div className="mt-6">
              <PasskeyButton
                ceremony="create"
                variant="primary"
                label={t("passkeys.create")}
                pendingLabel={t("passkeys.creating")}
              />
              <noscript>
                <p className="text-sm text-slate-700">{t("security.passkeysNeedJavaScript")}</p>
              </noscript>
            </div>
          </section>
        ) : null}
        {devicesEnabled ? (
          <section
            className="rounded-lg border border-slate-200 p-6"
            aria-labelledby="security-devices"
          >
            <h2 id="security-devices" className="text-xl font-bold">
              {t("security.devicesHeading")}
            </h2>
            <p className="mt-2 text-slate-700">{t("security.devicesIntro")}</p>
            {devices === null ? (
              <p role="status" className="mt-4 text-error">
                {t("security.unavailable")}
              </p>
            ) : devices.length === 0 ? (
              <p className="mt-4" data-testid="devices-empty">
                {t("security.devicesEmpty")}
              </p>
            ) : (
              <>
                <ul className="mt-4 space-y-4" data-testid="devices">
                  {devices.map((device) => {
                    const name =
                      device.browser && device.system
                        ? t("security.deviceName", {
                            browser: device.browser,
                            system: device.system,
                          })
                        : (device.browser ?? device.system ?? t("security.unknownDevice"));
                    return (
                      <li
                        key={device.key}
                        className="rounded border border-slate-200 p-4"
                        data-testid="device"
                      >
                        <p className="font-semibold">
                          {name}
                          {device.thisBrowser ? (
                            <span className="ml-2 text-sm font-normal text-primary-dark">
                              {t("security.thisBrowser")}
                            </span>
                          ) : null}
                        </p>
                        <p className="mt-1 text-sm text-slate-700">
                          {t("security.lastSignIn")}: <When iso={device.lastSignInAt} />
                        </p>
                        <Form method="post" className="mt-2">
                          <input type="hidden" name="device_key" value={device.key} />
                          <SubmitButton
                            name="intent"
                            value="forget-device"
                            variant="dangerLink"
                            pendingLabel={t("security.forgetting")}
                          >
                            {t("security.forgetDevice", { name })}
                          </SubmitButton>
                        </Form>
                      </li>
                    );
                  })}
                </ul>
                <Form method="post" className="mt-6">
                  <SubmitButton
                    name="intent"
                    value="forget-all-devices"
                    variant="quiet"
                    pendingLabel={t("security.forgetting")}
                  >
                    {t("security.forgetAllDevices")}
                  </SubmitButton>
                </Form>
              </>
            )}
          </section>
        ) : null}
      </div>
    </>
  );
}
