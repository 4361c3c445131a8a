/**
 * Unexpected errors (a 500, what reaches the error boundary) told to an error tracker
 * (decision 0111): Sentry, or any service that takes its envelopes, when SENTRY_DSN is set;
 * nothing otherwise. A report names the request (its id, the route, the method) and carries the
 * error's type, message and stack, with addresses, numbers and tokens taken out of the message:
 * never the request's address, query, cookies, headers or body, nor who the customer is.
 */
export interface ErrorReporter {
  readonly enabled: boolean;
  /** Sends in the background; never throws. */
  report(error: unknown, request: ReportedRequest): void;
  /** Waits, at most `timeoutMs`, for the reports still being sent (at shutdown). */
  flush(timeoutMs: number): Promise<void>;
}

/** What a report says of the request: nothing a customer typed or carries. */
export interface ReportedRequest {
  requestId: string;
  /** The route id or the server step (server/metrics.ts's labels), never the path. */
  route: string;
  method: string;
}

export const noErrorReports: ErrorReporter = {
  enabled: false,
  report: () => undefined,
  flush: async () => undefined,
};
