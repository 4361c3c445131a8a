import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { LOOKUP_LIMITS } from "./lookup-limits";
import { statusLookupSchema } from "./portability-schema";
import { toRequestView, type RequestView } from "./request-view";
import type { RequestContext } from "~/context";

export type LookupOutcome = "invalid" | "found" | "not_found" | "limited";

/** The page's status for each outcome of the lookup. */
export const LOOKUP_STATUS: Record<LookupOutcome, number> = {
  invalid: 400,
  found: 200,
  not_found: 404,
  limited: 429,
};

export interface StatusLookup {
  result: SubmissionResult<string[]>;
  outcome: LookupOutcome;
  /** What the lookup shows of a request found: nothing personal. */
  request: RequestView | null;
}

/**
 * The status lookup (`?folio=…&numero=…`, a plain GET form): both must match. Folios are
 * sequential: without a limit, someone who knows a number could try them all. A database out of
 * reach is the page's (decision 0076), like every page's.
 */
export async function lookUpStatus(
  context: RequestContext,
  params: URLSearchParams,
): Promise<StatusLookup> {
  const submission = parseWithZod(params, { schema: statusLookupSchema });
  if (submission.status !== "success") {
    return { result: submission.reply(), outcome: "invalid", request: null };
  }
  const { folio, numero } = submission.value;
  const verdict = await context.rateLimiter.consume([
    { key: `portability-lookup-ip:${context.clientAddressKey}`, rule: LOOKUP_LIMITS.perIp },
    { key: `portability-lookup-line:${numero}`, rule: LOOKUP_LIMITS.perLine },
    { key: `portability-lookup-line-day:${numero}`, rule: LOOKUP_LIMITS.perLinePerDay },
  ]);
  if (!verdict.allowed) {
    context.logger.warn({ requestId: context.requestId }, "portability lookups over the limit");
    return { result: submission.reply(), outcome: "limited", request: null };
  }
  const found = await context.portability.lookup(folio, numero);
  return {
    result: submission.reply(),
    outcome: found ? "found" : "not_found",
    request: found ? toRequestView(found, false) : null,
  };
}
