import { createHash, timingSafeEqual } from "node:crypto";
import { databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { findEsimByIccid, markEsimInstalled } from "./activations.server";
import {
  downloadProgressOutcome,
  downloadProgressSchema,
  es2plusFailure,
  maskedIccid,
} from "./download-progress";
import { ES2PLUS_DEFAULT_ADMIN_PROTOCOL } from "./es2plus-provisioner.server";
import type { RequestContext } from "~/context";

/** Every answer names the SGP.22 version spoken, as the ES2+ binding asks (§6.5). */
const ADMIN_PROTOCOL_HEADER = { "X-Admin-Protocol": ES2PLUS_DEFAULT_ADMIN_PROTOCOL };

function failure(
  status: 400 | 401,
  code: Parameters<typeof es2plusFailure>[0],
  message: string,
): Response {
  return Response.json(es2plusFailure(code, message), {
    status,
    headers: ADMIN_PROTOCOL_HEADER,
  });
}

/** A notification function has no output: 204, empty (SGP.22 §6.5.1). */
function acknowledged(): Response {
  return new Response(null, { status: 204, headers: ADMIN_PROTOCOL_HEADER });
}

/** Digests of equal length compared in constant time: neither the secret nor its length leaks. */
function carriesSecret(request: Request, secret: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(match[1]), digest(secret));
}

/**
 * POST /gsma/rsp2/es2plus/handleDownloadProgressInfo — the SM-DP+ telling the store how far a
 * profile's download got (decision 0093). A BPP installation executed for one of the store's
 * eSIMs marks it installed, which queues its line's activation (once: a repeat changes nothing).
 * Every other step, a failure, or a profile the store does not know is acknowledged and changes
 * nothing: the SM-DP+ retries what is not acknowledged, and retrying would not change the answer.
 * Only malformed or unauthenticated calls are refused, and a database that cannot take the write
 * now (503: retried later, nothing lost).
 */
export async function receiveDownloadProgressInfo(context: RequestContext, request: Request) {
  const secret = context.config.ES2PLUS_NOTIFICATION_SECRET;
  // The sandbox issues codes no SM-DP+ knows: nobody may claim to have installed one.
  if (context.config.ESIM_PROVIDER !== "es2plus" || !secret) {
    return new Response(null, { status: 404 });
  }
  const t = getFixedT();
  if (!carriesSecret(request, secret)) {
    context.logger.warn({
      msg: "ES2+ notification refused: no valid secret",
      requestId: context.requestId,
    });
    return failure(401, "unauthorized", t("errors.es2plusNotificationUnauthorized"));
  }
  // At most FORM_BODY_LIMIT_BYTES: the server stops reading any body past it.
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    body = undefined;
  }
  const parsed = downloadProgressSchema.safeParse(body);
  if (!parsed.success) {
    context.logger.info({
      msg: "ES2+ notification refused: malformed",
      requestId: context.requestId,
      fields: [...new Set(parsed.error.issues.map((issue) => issue.path.join(".")))],
    });
    return failure(400, "malformed", t("errors.es2plusNotificationMalformed"));
  }
  const notification = parsed.data;
  const point = {
    requestId: context.requestId,
    notificationPointId: notification.notificationPointId,
    status: notification.notificationPointStatus.status,
  };
  if (downloadProgressOutcome(notification) === "noted") {
    context.logger.info({ msg: "ES2+ download progress noted", ...point });
    return acknowledged();
  }
  try {
    const esim = await findEsimByIccid(context.db, notification.iccid);
    if (!esim) {
      context.logger.info({
        msg: "ES2+ installation of a profile the store did not issue: nothing done",
        ...point,
        iccid: maskedIccid(notification.iccid),
      });
      return acknowledged();
    }
    const installed = await markEsimInstalled(context.db, esim.order, esim.position);
    context.logger.info({
      msg: installed ? "eSIM installed: line activation queued" : "eSIM already installed",
      ...point,
      folio: esim.order.folio,
      position: esim.position,
    });
    return acknowledged();
  } catch (error) {
    return databaseBusyOrRethrow(
      context,
      "ES2+ installation",
      error,
      es2plusFailure("unavailable", t("errors.es2plusNotificationRetryLater")),
    );
  }
}
