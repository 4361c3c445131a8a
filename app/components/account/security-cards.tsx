import { Form } from "react-router";
import type { ReactNode } from "react";
import type { DeviceRow, PasskeyRow } from "~/auth/account-security-request.server";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { SubmitButton } from "~/components/ui/button";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";

function When({ iso }: { iso: string | null }) {
  const { t } = useTranslation("auth");
  return <>{iso ? formatDateTime(iso) : t("security.never")}</>;
}

/**
 * A card of the security page: its heading and intro, then its rows, the empty state, or a notice
 * that the identity service could not list them (`rows` null).
 */
function SecurityCard<Row>({
  id,
  heading,
  intro,
  rows,
  empty,
  emptyTestId,
  list,
  after,
}: {
  id: string;
  heading: string;
  intro: string;
  rows: Row[] | null;
  empty: string;
  emptyTestId: string;
  list: (rows: Row[]) => ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation("auth");
  return (
    <section className="rounded-lg border border-slate-200 p-6" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-bold">
        {heading}
      </h2>
      <p className="mt-2 text-slate-700">{intro}</p>
      {rows === null ? (
        <p role="status" className="mt-4 text-error">
          {t("security.unavailable")}
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-4" data-testid={emptyTestId}>
          {empty}
        </p>
      ) : (
        list(rows)
      )}
      {after}
    </section>
  );
}

/** The account's passkeys, each with its dates and a delete button; a button creates another. */
export function PasskeysCard({ passkeys }: { passkeys: PasskeyRow[] | null }) {
  const { t } = useTranslation("auth");
  return (
    <SecurityCard
      id="security-passkeys"
      heading={t("security.passkeysHeading")}
      intro={t("security.passkeysIntro")}
      rows={passkeys}
      empty={t("security.passkeysEmpty")}
      emptyTestId="passkeys-empty"
      list={(passkeys) => (
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
      after={
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
      }
    />
  );
}

/** The browsers remembered after a second factor, each forgotten alone or all at once. */
export function RememberedDevicesCard({ devices }: { devices: DeviceRow[] | null }) {
  const { t } = useTranslation("auth");
  return (
    <SecurityCard
      id="security-devices"
      heading={t("security.devicesHeading")}
      intro={t("security.devicesIntro")}
      rows={devices}
      empty={t("security.devicesEmpty")}
      emptyTestId="devices-empty"
      list={(devices) => (
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
    />
  );
}

/** Ends every session of the account, this browser's too: a plain form (decision 0134). */
export function SignOutEverywhereCard() {
  const { t } = useTranslation("auth");
  return (
    <section className="rounded-lg border border-slate-200 p-6" aria-labelledby="security-sessions">
      <h2 id="security-sessions" className="text-xl font-bold">
        {t("security.sessionsHeading")}
      </h2>
      <p className="mt-2 text-slate-700">{t("security.sessionsIntro")}</p>
      <Form method="post" className="mt-4">
        <SubmitButton
          name="intent"
          value="sign-out-everywhere"
          variant="quiet"
          pendingLabel={t("security.signingOutEverywhere")}
        >
          {t("security.signOutEverywhere")}
        </SubmitButton>
      </Form>
    </section>
  );
}
