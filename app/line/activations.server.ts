import type { Transaction } from "kysely";
import type { Db } from "~/db/db.server";
import type { Database } from "~/db/schema";
import {
  lineRegistrationView,
  type LineRegistrationView,
} from "~/registration/activation-registrations.server";
import { planOffer } from "./line";
import { activationJobId, lineJobOutcome, queueLineJob } from "./line-jobs.server";

/**
 * Where a customer's line comes from (decision 0092): each SIM the store sold becomes a line
 * when it is activated — an eSIM when its profile is installed, a physical SIM when its customer
 * types its ICCID at /activar — and a completed portability makes the ported number a line. Each
 * queues one activate-line job (~/line/line-jobs.server.ts) in the transaction that decided it;
 * the worker asks the BSS for the line and puts it in its account. The job's reference is the
 * SIM (an order's SIM at its position) or the portability request, so that a SIM or a request
 * is activated once however often it is asked for.
 */

type Executor = Db | Transaction<Database>;

/** An order's SIM at its position (0-based, in the order of its lines), as ~/checkout keeps it. */
export interface SoldSim {
  orderRef: string;
  position: number;
  iccid: string;
  /** The plan bought with it: the line starts with its package. */
  planId: string;
}

/** The reference of an eSIM's activation: "esim:<order>:<position>". */
export function esimActivationRef(orderRef: string, position: number): string {
  return `esim:${orderRef}:${position}`;
}

/** The reference of a physical SIM's activation: "sim:<order>:<position>". */
export function simActivationRef(orderRef: string, position: number): string {
  return `sim:${orderRef}:${position}`;
}

/** The reference of a port-in's activation: "portability:<request id>". */
export function portInActivationRef(requestId: string): string {
  return `portability:${requestId}`;
}

/**
 * Queues the activation of an eSIM whose profile a phone installed, in the caller's transaction
 * (the one that records the installation). The line goes to the account the order was placed
 * from; a guest's line is in no account until its customer adds it with an SMS code.
 */
export async function queueEsimActivation(
  trx: Executor,
  sim: SoldSim & { accountSub: string | null },
  now: Date,
): Promise<string> {
  return queueActivation(trx, esimActivationRef(sim.orderRef, sim.position), {
    iccid: sim.iccid,
    offerId: sim.planId,
    accountSub: sim.accountSub,
    source: "esim",
    sourceRef: `${sim.orderRef}:${sim.position}`,
    now,
  });
}

/** Queues the activation of a shipped SIM its customer typed the ICCID of at /activar. */
export async function queueSimActivation(
  trx: Executor,
  sim: SoldSim & { accountSub: string | null },
  now: Date,
): Promise<string> {
  return queueActivation(trx, simActivationRef(sim.orderRef, sim.position), {
    iccid: sim.iccid,
    offerId: sim.planId,
    accountSub: sim.accountSub,
    source: "sim",
    sourceRef: `${sim.orderRef}:${sim.position}`,
    now,
  });
}

/** Queues the line of a completed port-in: the ported number on the SIM it moved to. */
export async function queuePortInActivation(
  trx: Executor,
  portIn: {
    requestId: string;
    number: string;
    iccid: string;
    planId: string;
    accountSub: string | null;
  },
  now: Date,
): Promise<string> {
  return queueActivation(trx, portInActivationRef(portIn.requestId), {
    iccid: portIn.iccid,
    offerId: portIn.planId,
    number: portIn.number,
    accountSub: portIn.accountSub,
    source: "portability",
    sourceRef: portIn.requestId,
    now,
  });
}

async function queueActivation(
  trx: Executor,
  reference: string,
  details: {
    iccid: string;
    offerId: string;
    number?: string;
    accountSub: string | null;
    source: "esim" | "sim" | "portability";
    sourceRef: string;
    now: Date;
  },
): Promise<string> {
  const id = activationJobId(reference);
  await queueLineJob(trx, {
    id,
    kind: "activate-line",
    payload: {
      externalId: reference,
      iccid: details.iccid,
      offerId: details.offerId,
      ...(details.number ? { number: details.number } : {}),
      accountSub: details.accountSub,
      source: details.source,
      sourceRef: details.sourceRef,
    },
    now: details.now,
  });
  return id;
}

/**
 * A SIM's line as its customer sees it: being activated, active with its number, or refused by
 * the operator's BSS (support looks at it); null when nothing asked for it yet.
 */
export type LineActivationView =
  | { state: "activating" }
  | {
      state: "active";
      number: string;
      /** Its registration to its holder (issue 27); null for a line from before it was asked. */
      registration: LineRegistrationView | null;
    }
  | { state: "refused" };

/** Where the activation with this job id stands, for a page. */
export async function lineActivationView(
  db: Executor,
  jobId: string,
): Promise<LineActivationView | null> {
  const outcome = await lineJobOutcome(db, jobId);
  if (!outcome || outcome.kind !== "activate-line") return null;
  if (outcome.state === "done") {
    const { number } = outcome.result;
    return { state: "active", number, registration: await lineRegistrationView(db, number) };
  }
  return outcome.state === "refused" ? { state: "refused" } : { state: "activating" };
}

/** The activation view of each of an order's SIMs that has one, by position. */
export async function orderLineActivations(
  db: Executor,
  kind: "esim" | "sim",
  orderRef: string,
  positions: readonly number[],
): Promise<Map<number, LineActivationView>> {
  const views = new Map<number, LineActivationView>();
  for (const position of positions) {
    const reference =
      kind === "esim"
        ? esimActivationRef(orderRef, position)
        : simActivationRef(orderRef, position);
    const view = await lineActivationView(db, activationJobId(reference));
    if (view) views.set(position, view);
  }
  return views;
}

/** The plan's name for a page, from the catalogue; null for a plan no longer sold. */
export function planName(planId: string): string | null {
  return planOffer(planId)?.name ?? null;
}
