import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { type DetailsRow, DetailsList } from "~/components/ui/details-list";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";
import { translateFormMessage } from "~/lib/form-messages";
import { formatLineNumber } from "~/line/line-view";
import { ASSISTED_VALIDATION_PATH, POINTS_OF_SERVICE_PATH } from "~/registration/paths";
import { REGISTRATION_INTENTS } from "~/registration/registration-form";
import type { RegistrationReceipt } from "~/registration/registration-request.server";

/** Forgets the number (and the registration shown): the page starts again. */
export function OtherNumberButton({ label }: { label: string }) {
  const { t } = useTranslation("registration");
  return (
    <Form method="post" className="mt-6">
      <SubmitButton
        name="intent"
        value={REGISTRATION_INTENTS.forget}
        variant="outline"
        width="blockOnPhone"
        pendingLabel={t("page.forgetting")}
      >
        {label}
      </SubmitButton>
    </Form>
  );
}

/** The registration just made: its folio, when, the line, the holder and the key masked. */
export function RegistrationReceiptView({ receipt }: { receipt: RegistrationReceipt }) {
  const { t } = useTranslation("registration");
  const rows: DetailsRow[] = [
    { label: t("registered.folio"), value: receipt.folio, testId: "registration-folio" },
    {
      label: t("registered.registeredAt"),
      value: formatDateTime(receipt.registeredAt),
      testId: "registration-date",
    },
    {
      label: t("registered.number"),
      value: formatLineNumber(receipt.number),
      testId: "registration-number",
    },
    { label: t("registered.holderName"), value: receipt.holderName, testId: "registration-holder" },
    {
      label: t("registered.holderKey"),
      value: receipt.holderKeyMasked,
      testId: "registration-holder-key",
    },
  ];
  return (
    <section aria-labelledby="registered-heading" className="max-w-2xl">
      <Alert tone="success" testId="registration-done">
        <h2 id="registered-heading" className="text-xl font-bold">
          {t("registered.heading")}
        </h2>
        <p className="mt-1">{t("registered.lead")}</p>
      </Alert>
      <DetailsList rows={rows} />
      <p className="mt-4 text-sm text-slate-700">{t("registered.mailed")}</p>
      <OtherNumberButton label={t("registered.another")} />
    </section>
  );
}

/** The online path has ended for this number: where to register in person. */
export function InPersonView({ result }: { result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("registration");
  const messages = Object.values(result?.error ?? {})
    .flat()
    .filter((message): message is string => typeof message === "string")
    .filter((message) => message !== "registration:errors.attemptsUsed");
  return (
    <section aria-labelledby="in-person-heading" className="max-w-2xl">
      <Alert testId="registration-in-person">
        {messages.map((message) => (
          <p key={message} className="mb-2 font-semibold" data-testid="registration-refusal">
            {translateFormMessage(t, message)}
          </p>
        ))}
        <h2 id="in-person-heading" className="text-xl font-bold">
          {t("inPerson.heading")}
        </h2>
        <p className="mt-1">{t("inPerson.lead")}</p>
      </Alert>
      <p className="mt-4 text-slate-800">{t("inPerson.where")}</p>
      <Link
        to={`${POINTS_OF_SERVICE_PATH}?servicio=registro-de-linea`}
        className={`${buttonClass({ variant: "secondary", width: "blockOnPhone" })} mt-4`}
      >
        {t("inPerson.findPoint")}
      </Link>
      <p className="mt-6 text-slate-800">{t("inPerson.assistedLead")}</p>
      <Link
        to={ASSISTED_VALIDATION_PATH}
        className={`${buttonClass({ variant: "outline", width: "blockOnPhone" })} mt-4`}
      >
        {t("inPerson.assisted")}
      </Link>
      <p className="mt-6 text-slate-800">{t("inPerson.later")}</p>
      <OtherNumberButton label={t("page.other")} />
    </section>
  );
}
