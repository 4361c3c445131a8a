import type { Logger } from "pino";
import { getFixedT } from "~/i18n/i18n.server";
import type { SmsSender } from "~/sms/sender";
import { disputePath } from "./paths";
import type { SmsNotice } from "./registration-notices.server";

// Apart from registration-notices.server.ts, which the data layer imports: the SMS's words come
// from the locale files, which only the server's build (not a test's plain import) reads.

/**
 * Sends the SMS notices of a committed registration. One that cannot go is logged (never the
 * number or the text) and dropped: the registration stands, and the others still go.
 */
export async function sendSmsNotices(
  deps: { sms: SmsSender; publicOrigin: string; logger: Pick<Logger, "warn"> },
  notices: readonly SmsNotice[],
): Promise<void> {
  const t = getFixedT("registration");
  for (const notice of notices) {
    try {
      await deps.sms.send({
        to: notice.to,
        text: t("notice.sms", { url: `${deps.publicOrigin}${disputePath(notice.token)}` }),
        template: "registration-notice",
      });
    } catch (error) {
      deps.logger.warn({
        msg: "registration notice: SMS not sent",
        error: error instanceof Error ? error.name : "error",
      });
    }
  }
}
