import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { asOrderOwner } from "~/auth/email-trust.server";
import type { Customer } from "~/auth/tokens";
import { customerOwnsOrder } from "~/checkout/orders.server";
import { findShippedSim, type ShippedSim } from "~/checkout/shipped-sims.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { portInForSim } from "~/portability/order-port-ins.server";
import type { RateLimitRule } from "~/lib/rate-limit";
import { readStartedActivations, rememberActivation } from "./activation-access.server";
import {
  lineActivationView,
  planName,
  portInActivationRef,
  queueSimActivation,
  type LineActivationView,
} from "./activations.server";
import { activationJobId, lineJobOutcome } from "./line-jobs.server";
import { SIM_ACTIVATION_PATH } from "./paths";
import { simActivationSchema } from "./sim-activation-schema";
import type { RequestContext } from "~/context";

const QUARTER_HOUR_MS = 15 * 60 * 1000;

/**
 * ICCIDs that name no shipped SIM, per client address. An ICCID is printed on the card, not a
 * secret, and those of one batch follow each other: the limit stops a script from trying them
 * by the thousand, not someone holding a SIM. A customer who types theirs right is never counted.
 */
export const SIM_ACTIVATION_LIMIT: RateLimitRule = { limit: 10, windowMs: QUARTER_HOUR_MS };

/** One SIM activated from this browser, as the page shows it. */
export interface StartedActivation {
  /** The job's id: a React key only (the page shows no reference). */
  key: string;
  planName: string | null;
  line: LineActivationView;
}

/**
 * The activations this browser started (a sealed cookie lists them), each as it stands now:
 * being activated, its number, or refused by the BSS. A job id that is no activation is skipped.
 */
export async function loadSimActivationPage(context: RequestContext, customer: Customer | null) {
  const started: StartedActivation[] = [];
  for (const id of readStartedActivations(context)) {
    const line = await lineActivationView(context.db, id);
    if (!line) continue;
    const offerId = await activationOfferId(context, id);
    started.push({ key: id, planName: offerId ? planName(offerId) : null, line });
  }
  return { signedIn: customer !== null, started };
}

/** The plan an activation was queued with (its payload's offer). */
async function activationOfferId(context: RequestContext, id: string): Promise<string | null> {
  const row = await context.db
    .selectFrom("line_jobs")
    .select("payload")
    .where("id", "=", id)
    .executeTakeFirst();
  try {
    const payload = JSON.parse(row?.payload ?? "null") as { offerId?: unknown } | null;
    return typeof payload?.offerId === "string" ? payload.offerId : null;
  } catch {
    return null;
  }
}

/**
 * The account a shipped SIM's line goes to (decision 0092): the account the order was placed
 * from; for a guest's order, the signed-in customer's when the order is theirs (its e-mail, once
 * proved theirs); else none — whoever holds the SIM adds the line to an account with a code sent
 * to it, which proves the SIM is in their hands.
 */
export function accountForSim(
  context: RequestContext,
  sim: ShippedSim,
  customer: Customer | null,
): string | null {
  if (sim.order.customerSub) return sim.order.customerSub;
  const owner = customer ? asOrderOwner(context, customer) : null;
  return owner && customerOwnsOrder(sim.order, owner) ? owner.sub : null;
}

/**
 * The activation a completed port-in onto this SIM already queued: the ported number is this
 * SIM's line, so the page shows it instead of asking the BSS for a second one.
 */
async function portInOnto(context: RequestContext, iccid: string): Promise<string | null> {
  const requests = await context.db
    .selectFrom("portability_requests")
    .select("id")
    .where("iccid", "=", iccid)
    .where("status", "=", "completed")
    .execute();
  for (const request of requests) {
    const id = activationJobId(portInActivationRef(request.id));
    if (await lineJobOutcome(context.db, id)) return id;
  }
  return null;
}

/**
 * The ICCID sent: checked (19 or 20 digits, Luhn), looked up among the SIMs the operator
 * shipped — one that is not answers the same whoever's it might be, and counts against the
 * address — then its activation queued once (a second time finds the first), remembered by this
 * browser, and the page again, which shows it "activando" and then its number.
 */
export async function submitSimActivation(
  context: RequestContext,
  request: Request,
  customer: Customer | null,
) {
  const submission = parseWithZod(await request.formData(), { schema: simActivationSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const { iccid } = submission.value;
  const limitKey = `sim-activation-ip:${context.clientAddressKey}`;
  try {
    const verdict = await context.rateLimiter.check(limitKey, SIM_ACTIVATION_LIMIT);
    if (!verdict.allowed) {
      context.logger.warn({ msg: "SIM activations over the limit", requestId: context.requestId });
      return data(
        { result: submission.reply({ formErrors: ["activation:errors.limited"] }) },
        { status: 429, headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
      );
    }
    const sim = await findShippedSim(context.db, iccid);
    if (!sim) {
      await context.rateLimiter.consume([{ key: limitKey, rule: SIM_ACTIVATION_LIMIT }]);
      return data(
        {
          result: submission.reply({
            fieldErrors: { iccid: ["activation:errors.notShipped"] },
          }),
        },
        { status: 404 },
      );
    }
    const portedOnto = await portInOnto(context, sim.iccid);
    // A SIM bought to receive a number being ported waits for the port: activated now, with a
    // new number, it could not take the ported one (decisions 0092, 0106).
    if (!portedOnto && (await portInForSim(context.db, sim.orderRef, sim.position))) {
      return data(
        { result: submission.reply({ formErrors: ["activation:errors.awaitingPortIn"] }) },
        { status: 409 },
      );
    }
    const jobId =
      portedOnto ??
      (await queueSimActivation(
        context.db,
        {
          orderRef: sim.orderRef,
          position: sim.position,
          iccid: sim.iccid,
          planId: sim.planId,
          accountSub: accountForSim(context, sim, customer),
        },
        new Date(),
      ));
    rememberActivation(context, jobId);
  } catch (error) {
    return databaseBusyOrRethrow(context, "SIM activation", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    });
  }
  return redirect(SIM_ACTIVATION_PATH, { status: 303 });
}
