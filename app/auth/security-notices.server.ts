import { randomUUID } from "node:crypto";
import { enqueueMail, type AccountSecurityChange } from "~/mail-queue/mail-queue.server";
import type { RequestContext } from "~/context";

/**
 * Every change to how an account signs in is e-mailed to the account (decision 0134): the
 * customer learns of a change they did not make, with a link to the security page. The change
 * stands when the e-mail cannot be queued; the failure is logged.
 */
export async function noticeSecurityChange(
  context: Pick<RequestContext, "db" | "logger" | "requestId">,
  email: string,
  change: AccountSecurityChange,
): Promise<void> {
  try {
    await enqueueMail(context.db, {
      dedupeKey: `account-security:${change}:${randomUUID()}`,
      to: email,
      template: "account_security",
      data: { change, at: new Date().toISOString() },
    });
  } catch (error) {
    context.logger.warn({
      msg: "account security e-mail not queued",
      change,
      requestId: context.requestId,
      code: (error as { code?: unknown } | null)?.code,
    });
  }
}
