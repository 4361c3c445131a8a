import { data, type AppLoadContext } from "@remix-run/node";

/** The message of a write the database could not take; the form keeps what was typed. */
export const DATABASE_BUSY_KEY = "common:errors.databaseBusy";
const RETRY_AFTER_SECONDS = 5;

/** Answers such a write: 503 with Retry-After, logged with the error code only. */
export function databaseBusy<T>(context: AppLoadContext, what: string, error: unknown, body: T) {
  context.logger.warn({
    msg: `${what} not saved: database unavailable`,
    requestId: context.requestId,
    code: (error as { code?: unknown }).code,
  });
  return data(body, { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } });
}
