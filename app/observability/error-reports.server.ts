import type { Logger } from "pino";
import type { Config } from "~/config.server";
import { noErrorReports, type ErrorReporter } from "./error-reporter";

/**
 * The configured reporter. Sentry's SDK is loaded only when SENTRY_DSN is set: off, a server
 * loads none of it.
 */
export async function createErrorReporter(
  config: Pick<Config, "SENTRY_DSN" | "SENTRY_ENVIRONMENT" | "SENTRY_RELEASE" | "NODE_ENV">,
  logger: Pick<Logger, "warn">,
): Promise<ErrorReporter> {
  if (!config.SENTRY_DSN) return noErrorReports;
  const { createSentryReporter } = await import("./sentry-reporter.server");
  return createSentryReporter({
    dsn: config.SENTRY_DSN,
    environment: config.SENTRY_ENVIRONMENT ?? config.NODE_ENV,
    release: config.SENTRY_RELEASE,
    logger,
  });
}
