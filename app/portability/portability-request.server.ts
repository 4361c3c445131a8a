import { normaliseFolio } from "~/db/folio";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Customer } from "~/auth/tokens";
import { databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import { portabilitySchema } from "./portability-schema";
import { readSubmittedRequests, rememberPortabilityRequest } from "./request-access.server";
import { toRequestView, type RequestView } from "./request-view";
import { LOOKUP_STATUS, lookUpStatus } from "./status-lookup.server";
import type { RequestContext } from "~/context";

/**
 * The page: the request form with a key of this browser's own, and what the address asks for.
 * `?solicitud=<folio>`: the request this browser just submitted (a sealed cookie lists its id).
 * `?folio=…&numero=…`: the status lookup.
 */
export async function loadPortabilityPage(context: RequestContext, url: URL) {
  const solicitud = url.searchParams.get("solicitud");
  const submittedFolio = solicitud ? normaliseFolio(solicitud) || null : null;
  const found = submittedFolio
    ? await context.portability.findSubmitted(submittedFolio, readSubmittedRequests(context))
    : null;
  const submitted: RequestView | null = found ? toRequestView(found, true) : null;
  const lookup =
    url.searchParams.has("folio") || url.searchParams.has("numero")
      ? await lookUpStatus(context, url.searchParams)
      : null;
  return data(
    {
      title: getFixedT()("pages.portability.title"),
      description: getFixedT()("pages.portability.description"),
      idempotencyKey: issueFormKey(context, "portability"),
      submitted,
      submittedElsewhere: submittedFolio && !submitted ? submittedFolio : null,
      lookup,
    },
    { status: lookup ? LOOKUP_STATUS[lookup.outcome] : 200 },
  );
}

/** What refused the whole request, beside its fields. */
export type PortabilityProblem = { kind: "duplicate" | "staleForm" | "unavailable" };

/** The answer to a refused request form: its values (never the NIP) and what went wrong. */
export interface PortabilityRefusal {
  result: SubmissionResult<string[]>;
  problem: PortabilityProblem | null;
  /** New for every reply (a view token), so the NIP field starts empty after each answer. */
  replyId: string;
}

/**
 * The request form sent: checked, its key this browser's own, recorded once per key, then the
 * page that shows it. A number with an open request is refused without naming that request.
 * Signed in, the request is the customer's: the ported number becomes a line of their account.
 */
export async function submitPortabilityRequest(
  context: RequestContext,
  request: Request,
  customer: Customer | null,
) {
  const submission = parseWithZod(await request.formData(), { schema: portabilitySchema });
  const refusal = (problem: PortabilityProblem | null): PortabilityRefusal => ({
    // The NIP is never sent back: the customer types it again.
    result: submission.reply({
      hideFields: ["nip"],
      ...(problem ? { formErrors: [`portability:errors.${problem.kind}`] } : {}),
    }),
    problem,
    replyId: context.newViewToken(),
  });
  if (submission.status !== "success") return data(refusal(null), { status: 400 });
  // A key this browser was not given (copied from another one, or signed with a secret this
  // browser no longer holds) opens nothing: the form comes back with a key of its own.
  if (!isOwnFormKey(context, "portability", submission.value.idempotency_key)) {
    const stale = refusal({ kind: "staleForm" });
    const result = replyWithFormKey(stale.result, issueFormKey(context, "portability"));
    return data({ ...stale, result }, { status: 409 });
  }
  let outcome;
  try {
    // Signed in, the ported number becomes a line of this account once the port completes.
    outcome = await context.portability.submit(submission.value, {
      customerSub: customer?.sub ?? null,
    });
  } catch (error) {
    // Logged with the error's code only: the form's values (a NIP among them) never are.
    return databaseBusyOrRethrow(
      context,
      "portability request",
      error,
      refusal({ kind: "unavailable" }),
    );
  }
  if (outcome.kind === "open_request_exists") {
    return data(refusal({ kind: "duplicate" }), { status: 409 });
  }
  const { folio, id } = outcome.request;
  rememberPortabilityRequest(context, id);
  return redirect(`/portabilidad?solicitud=${encodeURIComponent(folio)}`, { status: 303 });
}
