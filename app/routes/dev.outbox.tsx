import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { authT } from "~/auth/flow.server";
import { PageHeader } from "~/components/ui/page-header";
import { titleMeta } from "~/lib/meta";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

/**
 * Development only: the codes the embedded identity emulator "sent", since it sends no email or
 * SMS. Absent in production and whenever a real Cognito pool is configured.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { outbox } = context.identity;
  if (!outbox) throw data(null, { status: 404 });
  const to = new URL(request.url).searchParams.get("to");
  const target = await context.identity.embeddedTarget().catch(() => null);
  return data(
    {
      title: authT()("outbox.title"),
      to: to ?? "",
      messages: outbox.list(to),
      emulator: target,
    },
    { headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } },
  );
}

export default function OutboxPage() {
  const { t } = useTranslation("auth");
  const { to, messages, emulator } = useLoaderData<typeof loader>();
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
            type="email"
            defaultValue={to}
            className="rounded border border-slate-400 px-3 py-2"
          />
        </div>
        <button type="submit" className="rounded bg-primary px-4 py-2 font-semibold text-white">
          {t("outbox.apply")}
        </button>
      </Form>
      {messages.length === 0 ? (
        <p>{t("outbox.empty")}</p>
      ) : (
        <table className="w-full text-left" data-testid="outbox">
          <caption className="sr-only">{t("outbox.caption")}</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-4">
                {t("outbox.sentAt")}
              </th>
              <th scope="col" className="py-2 pr-4">
                {t("outbox.to")}
              </th>
              <th scope="col" className="py-2 pr-4">
                {t("outbox.purpose")}
              </th>
              <th scope="col" className="py-2">
                {t("outbox.code")}
              </th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr
                key={message.id}
                className="border-b border-slate-200"
                data-testid="outbox-message"
              >
                <td className="py-2 pr-4">{message.sentAt}</td>
                <td className="py-2 pr-4" data-testid="outbox-to">
                  {message.to}
                </td>
                <td
                  className="py-2 pr-4"
                  data-testid="outbox-purpose"
                  data-purpose={message.purpose}
                >
                  {t(`outbox.purposes.${message.purpose}`, { defaultValue: message.purpose })}
                </td>
                <td className="py-2 font-mono" data-testid="outbox-code">
                  {message.code}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
