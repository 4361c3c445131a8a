import { data } from "react-router";
import { isDatabaseUnavailable } from "./db.server";
import type { RequestContext } from "~/context";

/** The message of a write the database could not take; the form keeps what was typed. */
export const DATABASE_BUSY_KEY = "common:errors.databaseBusy";
/** How long the customer is asked to wait before trying again (Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The answer to a write that failed with `error`: when the database could not take it for a
 * moment, `body` with 503 and Retry-After (logged with the error code only); any other error is
 * a bug and is thrown on to the error boundary.
 */
export function databaseBusyOrRethrow<T>(
  context: RequestContext,
  what: string,
  error: unknown,
  body: T,
) {
  if (!isDatabaseUnavailable(error)) throw error;
  context.logger.warn({
    msg: `${what} not saved: database unavailable`,
    requestId: context.requestId,
    code: (error as { code?: unknown }).code,
  });
  return data(body, {
    status: 503,
    headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}
