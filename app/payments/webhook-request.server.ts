import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { isPaymentProviderUnavailable } from "./provider";
import type { RequestContext } from "~/context";

/**
 * POST /payments/webhook/<provider> — the provider's server-to-server notification. Only a
 * correctly signed one changes anything, and each payment changes state once however many times
 * it is delivered. Providers retry on any answer but 2xx, so duplicates answer 200 too.
 */
export async function receivePaymentNotification(
  context: RequestContext,
  request: Request,
  provider: string | undefined,
) {
  if (provider !== context.payments.provider.name) {
    return new Response(null, { status: 404 });
  }
  const t = getFixedT();
  // At most FORM_BODY_LIMIT_BYTES: the server stops reading any body past it (server/router-handler.ts).
  const rawBody = await request.text();
  let result;
  try {
    result = await context.payments.handleNotification(rawBody, request.headers);
  } catch (error) {
    // The provider delivers again later: nothing was applied, so the retry applies it once.
    if (isPaymentProviderUnavailable(error)) {
      return Response.json(
        { error: t("errors.notificationRetryLater") },
        { status: 503, headers: { "Retry-After": "60" } },
      );
    }
    return databaseBusyOrRethrow(context, "payment notification", error, {
      error: t(DATABASE_BUSY_KEY),
    });
  }
  if (result === "invalid") {
    return Response.json({ error: t("errors.notificationInvalidSignature") }, { status: 401 });
  }
  if (result === "rejected") {
    return Response.json({ error: t("errors.notificationUnknownPayment") }, { status: 422 });
  }
  return Response.json({ received: true, result });
}
