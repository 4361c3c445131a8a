import {
  applySdkMetadata,
  createStackParser,
  createTransport,
  linkedErrorsIntegration,
  Scope,
  type BaseTransportOptions,
  type ErrorEvent,
  type Exception,
} from "@sentry/core";
import {
  nodeStackLineParser,
  ServerRuntimeClient,
  type ServerRuntimeClientOptions,
} from "@sentry/core/server";
import type { Logger } from "pino";
import type { ErrorReporter } from "./error-reporter";
import { redactSecrets, scrubText } from "./redact.server";

/**
 * Error reports through Sentry's own client (decision 0111): `@sentry/core`'s ServerRuntimeClient,
 * the SDK's platform-neutral core (no OpenTelemetry, no automatic instrumentation), with a transport
 * on Node's fetch. Nothing is captured by itself: only what `report` is given, with the scope it
 * builds (the request's id, route and method). Every event goes through `withoutPersonalData`
 * last, whatever an integration may have added.
 */

/** How long one delivery may take; a tracker that does not answer loses the report, not a request. */
const DELIVERY_TIMEOUT_MS = 5_000;

export function createSentryReporter(options: {
  dsn: string;
  environment: string;
  release?: string;
  logger: Pick<Logger, "warn">;
}): ErrorReporter {
  const { logger } = options;
  let deliveryWarned = false;
  const transport = (transportOptions: BaseTransportOptions) =>
    createTransport(transportOptions, async ({ body }) => {
      try {
        const response = await fetch(transportOptions.url, {
          method: "POST",
          headers: { "Content-Type": "application/x-sentry-envelope" },
          body: typeof body === "string" ? body : Buffer.from(body),
          redirect: "error",
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        return {
          statusCode: response.status,
          headers: {
            "x-sentry-rate-limits": response.headers.get("x-sentry-rate-limits"),
            "retry-after": response.headers.get("retry-after"),
          },
        };
      } catch (error) {
        // Once per process: a tracker out of reach must not fill the log. The DSN holds a key.
        if (!deliveryWarned) {
          deliveryWarned = true;
          logger.warn({
            msg: "error report not delivered",
            cause: error instanceof Error ? error.name : "unknown",
          });
        }
        throw error;
      }
    });

  const clientOptions: ServerRuntimeClientOptions = {
    dsn: options.dsn,
    environment: options.environment,
    release: options.release,
    platform: "node",
    runtime: { name: "node", version: process.version },
    transport,
    stackParser: createStackParser(nodeStackLineParser()),
    // The error's causes; nothing that reads the request, the process or the modules.
    integrations: [linkedErrorsIntegration()],
    // Nothing of the request or the customer, whatever an integration could collect.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      databaseQueryData: false,
      queues: false,
      stackFrameVariables: false,
      frameContextLines: 0,
      graphQL: { document: false, variables: false },
      genAI: { inputs: false, outputs: false },
      mcp: { inputs: false, outputs: false },
    },
    maxBreadcrumbs: 0,
    traceLifecycle: "static",
    beforeSend: (event) => withoutPersonalData(event),
  };
  applySdkMetadata(clientOptions, "core");
  const client = new ServerRuntimeClient(clientOptions);
  client.init();

  return {
    enabled: true,
    report(error, request) {
      try {
        const scope = new Scope();
        scope.setTags({
          request_id: request.requestId,
          route: request.route,
          method: request.method,
        });
        scope.setTransactionName(`${request.method} ${request.route}`);
        client.captureException(
          error,
          { originalException: error, mechanism: { type: "storefront", handled: false } },
          scope,
        );
      } catch {
        // Reporting never breaks the answer.
      }
    },
    async flush(timeoutMs) {
      await Promise.resolve(client.flush(timeoutMs)).catch(() => false);
    },
  };
}

/**
 * The event as it may leave: no request, user, breadcrumbs or extra data of any kind (the client
 * is given none, this makes sure), exception messages without addresses, numbers or tokens, and
 * no value under a key that names a secret, at any depth.
 */
export function withoutPersonalData(event: ErrorEvent): ErrorEvent {
  const {
    request: _request,
    user: _user,
    breadcrumbs: _breadcrumbs,
    extra: _extra,
    // The SDK's own bookkeeping: of it only the trace's sampling context (for the envelope's
    // header) is kept, untouched.
    sdkProcessingMetadata,
    ...rest
  } = event;
  const scrubbed: ErrorEvent = {
    ...rest,
    ...(rest.message ? { message: scrubText(rest.message) } : {}),
    ...(rest.exception
      ? {
          exception: {
            ...rest.exception,
            values: rest.exception.values?.map((value) => scrubException(value)),
          },
        }
      : {}),
  };
  const dynamicSamplingContext = sdkProcessingMetadata?.dynamicSamplingContext as unknown;
  return {
    ...redactSecrets(scrubbed),
    ...(dynamicSamplingContext ? { sdkProcessingMetadata: { dynamicSamplingContext } } : {}),
  };
}

function scrubException(exception: Exception): Exception {
  const frames = exception.stacktrace?.frames?.map(
    ({ vars: _vars, pre_context: _pre, context_line: _line, post_context: _post, ...frame }) =>
      frame,
  );
  return {
    ...exception,
    ...(exception.value === undefined ? {} : { value: scrubText(exception.value) }),
    ...(exception.stacktrace ? { stacktrace: { ...exception.stacktrace, frames } } : {}),
  };
}
