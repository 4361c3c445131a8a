import { data, redirect } from "react-router";
import { getFixedT } from "~/i18n/i18n.server";
import { maskPhoneNumber } from "~/topup/phone";
import { disputePath } from "./paths";
import { disputeNotice, findNotice } from "./registration-notices.server";
import { findRegistration } from "./registrations.server";
import type { RequestContext } from "~/context";

/**
 * /no-fui-yo/<token> (decision 0136): the page a new registration's notice
 * links to. It shows the line registered (masked) and when, and records "no fui yo" for the
 * operator. The token is the only key: unknown, it is a 404; nothing of the holder is shown.
 */
export async function loadDisputePage(context: RequestContext, token: string | undefined) {
  const notice = token ? await findNotice(context.db, token) : null;
  const registration = notice ? await findRegistration(context.db, notice.registrationId) : null;
  if (!notice || !registration) throw data(null, { status: 404 });
  const t = getFixedT("registration");
  return {
    title: t("dispute.title"),
    line: maskPhoneNumber(registration.number),
    registeredAt: registration.registeredAt,
    disputed: notice.disputedAt !== null,
  };
}

export async function submitDispute(context: RequestContext, token: string | undefined) {
  if (!token || !(await disputeNotice(context.db, token))) throw data(null, { status: 404 });
  // The operator's list has it (ops registros --estado disputada); the log only says it happened.
  context.logger.info({ msg: "registration disputed", requestId: context.requestId });
  return redirect(disputePath(token), { status: 303 });
}
