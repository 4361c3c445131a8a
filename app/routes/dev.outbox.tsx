import { data, type LoaderFunctionArgs, Form, useLoaderData } from "react-router";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { DataTable } from "~/components/ui/data-table";
import { PageHeader } from "~/components/ui/page-header";
import { formatDateTime } from "~/lib/dates";
import { titleMeta } from "~/lib/meta";
import { readOutbox } from "~/mail/transport.server";
import { readSmsOutbox } from "~/sms/outbox.server";
import { Button } from "~/components/ui/button";
import { requestContext } from "~/lib/router-context.server";

export const handle = { i18n: ["auth", "line"], query: ["to"] };
export const meta = titleMeta;

const MAILS_SHOWN = 50;
const SMS_SHOWN = 50;

/**
 * Development only: the codes the embedded identity emulator "sent", since it sends no email or
 * SMS, the store's e-mails captured without SMTP_URL, and its SMS captured without an SMSC (the
 * codes that prove a line). Absent in production.
 */
export async function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { outbox } = context.identity;
  const mailDir = context.config.isProduction ? null : context.mailOutboxDir;
  const smsDir = context.config.isProduction ? null : context.smsOutboxDir;
  if (!outbox && !mailDir && !smsDir) throw data(null, { status: 404 });
  const to = url.searchParams.get("to");
  const target = outbox ? await context.identity.embeddedTarget().catch(() => null) : null;
  const mails = mailDir ? await readOutbox(mailDir, { to, limit: MAILS_SHOWN }) : [];
  const sms = smsDir ? await readSmsOutbox(smsDir, { to, limit: SMS_SHOWN }) : [];
  return data(
    {
      title: authT()("outbox.title"),
      to: to ?? "",
      messages: outbox ? outbox.list(to) : [],
      mails: mails.map((mail) => ({
        id: mail.id,
        sentAt: formatDateTime(mail.createdAt),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        // Files attached (an invoice's XML and PDF), not the images shown inline.
        attachments: mail.attachments
          .filter((attachment) => !attachment.cid)
          .map((attachment) => `${attachment.filename} (${attachment.contentType})`),
      })),
      sms: sms.map((message) => ({
        id: message.id,
        sentAt: formatDateTime(message.createdAt),
        to: message.to,
        template: message.template,
        text: message.text,
      })),
      emulator: target,
    },
    { headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } },
  );
}

export default function OutboxPage() {
  const { t } = useTranslation("auth");
  const { to, messages, mails, sms, emulator } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("outbox.heading")}>{t("outbox.intro")}</PageHeader>
      <Form method="get" className="mb-6 flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="outbox-to" className="mb-1 block font-medium">
            {t("outbox.filter")}
          </label>
          <input
            id="outbox-to"
            name="to"
            type="text"
            defaultValue={to}
            className="rounded border border-slate-400 px-3 py-2"
          />
        </div>
        <Button type="submit">{t("outbox.apply")}</Button>
      </Form>
      {messages.length === 0 ? (
        <p>{t("outbox.empty")}</p>
      ) : (
        <DataTable
          caption={t("outbox.caption")}
          testId="outbox"
          rowTestId="outbox-message"
          rows={messages}
          rowKey={(message) => message.id}
          columns={[
            { header: t("outbox.sentAt"), cell: (message) => message.sentAt },
            {
              header: t("outbox.to"),
              cell: (message) => message.to,
              className: "break-all",
              cellProps: () => ({ "data-testid": "outbox-to" }),
            },
            {
              header: t("outbox.purpose"),
              cell: (message) =>
                t(`outbox.purposes.${message.purpose}`, { defaultValue: message.purpose }),
              cellProps: (message) => ({
                "data-testid": "outbox-purpose",
                "data-purpose": message.purpose,
              }),
            },
            {
              header: t("outbox.code"),
              cell: (message) => message.code,
              className: "font-mono",
              cellProps: () => ({ "data-testid": "outbox-code" }),
            },
          ]}
        />
      )}
      <section className="mt-8" aria-labelledby="outbox-mail">
        <h2 id="outbox-mail" className="text-xl font-bold">
          {t("outbox.mailHeading")}
        </h2>
        {mails.length === 0 ? (
          <p className="mt-2">{t("outbox.mailEmpty")}</p>
        ) : (
          <DataTable
            className="mt-2"
            caption={t("outbox.mailCaption")}
            testId="outbox-mail"
            rowTestId="outbox-mail-message"
            rows={mails}
            rowKey={(mail) => mail.id}
            columns={[
              { header: t("outbox.sentAt"), cell: (mail) => mail.sentAt },
              {
                header: t("outbox.to"),
                cell: (mail) => mail.to,
                className: "break-all",
                cellProps: () => ({ "data-testid": "outbox-mail-to" }),
              },
              {
                header: t("outbox.subject"),
                cell: (mail) => (
                  <>
                    <span data-testid="outbox-mail-subject">{mail.subject}</span>
                    <details className="mt-1">
                      <summary className="cursor-pointer text-secondary underline">
                        {t("outbox.showText")}
                      </summary>
                      <pre
                        className="mt-2 whitespace-pre-wrap text-sm"
                        data-testid="outbox-mail-text"
                      >
                        {mail.text}
                      </pre>
                    </details>
                    <a
                      href={`/dev/outbox/${encodeURIComponent(mail.id)}`}
                      className="text-secondary underline"
                    >
                      {t("outbox.showHtml")}
                    </a>
                    {mail.attachments.length ? (
                      <ul className="mt-1 text-sm" data-testid="outbox-mail-attachments">
                        {mail.attachments.map((attachment) => (
                          <li key={attachment}>{attachment}</li>
                        ))}
                      </ul>
                    ) : null}
                  </>
                ),
              },
            ]}
          />
        )}
      </section>
      <section className="mt-8" aria-labelledby="outbox-sms">
        <h2 id="outbox-sms" className="text-xl font-bold">
          {t("line:devOutbox.heading")}
        </h2>
        {sms.length === 0 ? (
          <p className="mt-2">{t("line:devOutbox.empty")}</p>
        ) : (
          <DataTable
            className="mt-2"
            caption={t("line:devOutbox.caption")}
            testId="outbox-sms"
            rowTestId="outbox-sms-message"
            rows={sms}
            rowKey={(message) => message.id}
            columns={[
              { header: t("outbox.sentAt"), cell: (message) => message.sentAt },
              {
                header: t("outbox.to"),
                cell: (message) => message.to,
                cellProps: () => ({ "data-testid": "outbox-sms-to" }),
              },
              {
                header: t("line:devOutbox.template"),
                cell: (message) => message.template,
                className: "font-mono",
              },
              {
                header: t("line:devOutbox.text"),
                cell: (message) => message.text,
                cellProps: (message) => ({
                  "data-testid": "outbox-sms-text",
                  "data-template": message.template,
                }),
              },
            ]}
          />
        )}
      </section>
      {emulator ? (
        <section className="mt-8">
          <h2 className="text-xl font-bold">{t("outbox.emulator")}</h2>
          <dl
            className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1"
            data-testid="emulator"
          >
            <dt className="font-medium">{t("outbox.endpoint")}</dt>
            <dd data-testid="emulator-endpoint">{emulator.endpoint}</dd>
            <dt className="font-medium">{t("outbox.userPoolId")}</dt>
            <dd data-testid="emulator-pool">{emulator.userPoolId}</dd>
            <dt className="font-medium">{t("outbox.clientId")}</dt>
            <dd data-testid="emulator-client">{emulator.clientId}</dd>
          </dl>
        </section>
      ) : null}
    </>
  );
}
