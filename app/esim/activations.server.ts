import type { Logger } from "pino";
import { simsOfOrder } from "~/checkout/order-sims";
import { findOrder, type Order } from "~/checkout/orders.server";
import { nowIso, type Db } from "~/db/db.server";
import { queueEsimActivation } from "~/line/activations.server";
import { portInForSim } from "~/portability/order-port-ins.server";
import {
  isEsimProvisioningUnavailable,
  type EsimActivation,
  type EsimCancelOutcome,
  type EsimProvisioner,
} from "./provisioning";

/** One eSIM of a paid order, as its confirmation shows it. */
export interface StoredActivation {
  /** 0-based among the order's SIMs, in the order of its lines. */
  position: number;
  planName: string;
  /**
   * issued: its code is waiting for a phone, shown to whoever may see the order; installed: a
   * phone has it, and its code is never shown again (decision 0082).
   */
  state: "issued" | "installed";
  /** Null once installed: nothing past this module reads a spent code. */
  activationCode: string | null;
  iccid: string;
  testCode: boolean;
  installedAt: string | null;
}

export type OrderActivations =
  | { status: "ready"; activations: StoredActivation[] }
  /** The provisioner could not be reached: the page asks the customer to refresh. */
  | { status: "unavailable" };

function assertPaidEsimOrder(order: Order) {
  if (order.status !== "paid" || order.simType !== "esim") {
    throw new Error("Only a paid eSIM order has activation codes");
  }
}

/**
 * Withdraws a profile at the provisioner: its answer, or "unavailable" (logged with `why`) when
 * the provisioner cannot be reached now.
 */
async function cancelProfile(
  provisioner: EsimProvisioner,
  logger: Pick<Logger, "warn">,
  order: Order,
  profile: { iccid: string; position: number; generation: number },
  why: string,
): Promise<EsimCancelOutcome | "unavailable"> {
  try {
    return await provisioner.cancel({ ...profile, orderRef: order.ref });
  } catch (error) {
    if (!isEsimProvisioningUnavailable(error)) throw error;
    logger.warn({
      msg: why,
      provisioner: provisioner.name,
      folio: order.folio,
      position: profile.position,
      reason: error.reason,
    });
    return "unavailable";
  }
}

/**
 * The activation codes of a paid eSIM order, issued the first time they are asked for and kept:
 * a code is issued once per order, position and generation, so refreshing the page, a second tab
 * or the e-mail show the same code (a second request to a real SM-DP+ could reserve a second
 * profile). A code the customer had replaced is issued again under the next generation.
 */
export async function ensureEsimActivations(
  db: Db,
  provisioner: EsimProvisioner,
  logger: Pick<Logger, "warn">,
  order: Order,
): Promise<OrderActivations> {
  assertPaidEsimOrder(order);
  const sims = simsOfOrder(order);
  const stored = await readActivations(db, order.ref);
  const missing = sims.filter((sim) => !stored.has(sim.position));
  for (const sim of missing) {
    const generation = await replacedCount(db, order.ref, sim.position);
    let activation: EsimActivation;
    try {
      activation = await provisioner.issue({
        orderRef: order.ref,
        position: sim.position,
        generation,
      });
    } catch (error) {
      if (!isEsimProvisioningUnavailable(error)) throw error;
      logger.warn({
        msg: "eSIM activation not issued: provisioner unavailable",
        provisioner: provisioner.name,
        folio: order.folio,
        reason: error.reason,
      });
      return { status: "unavailable" };
    }
    // Two requests at once may both issue: the first stored wins, and both pages show it.
    const stored = await db
      .insertInto("esim_activations")
      .values({
        order_id: order.ref,
        position: sim.position,
        provisioner: provisioner.name,
        activation_code: activation.activationCode,
        iccid: activation.iccid,
        test_code: activation.testCode ? 1 : 0,
        created_at: nowIso(),
        installed_at: null,
        generation,
      })
      .onConflict((conflict) => conflict.columns(["order_id", "position"]).doNothing())
      .returning("order_id")
      .executeTakeFirst();
    // Nobody will ever see the code of the request that lost the race: its profile is withdrawn
    // rather than left reserved at the SM-DP+ (best effort).
    if (!stored) {
      await cancelProfile(
        provisioner,
        logger,
        order,
        { iccid: activation.iccid, position: sim.position, generation },
        "eSIM profile issued twice at once: the unused one stays reserved",
      );
    }
  }
  const all = missing.length ? await readActivations(db, order.ref) : stored;
  return {
    status: "ready",
    activations: sims.flatMap((sim) => {
      const row = all.get(sim.position);
      if (!row) return [];
      const installed = row.installed_at !== null;
      return [
        {
          position: sim.position,
          planName: sim.planName,
          state: installed ? "installed" : "issued",
          activationCode: installed ? null : row.activation_code,
          iccid: row.iccid,
          testCode: Number(row.test_code) === 1,
          installedAt: row.installed_at,
        } satisfies StoredActivation,
      ];
    }),
  };
}

/**
 * Records that a phone installed the eSIM at this position: its code is never shown again, and
 * its line is activated with the plan bought — queued in the same transaction, for the account
 * the order was placed from (a guest's order: none). Once: answers false when it was already
 * installed or has no code yet. An eSIM bought to receive a number being ported gets no line of
 * its own: the completed port brings it (or, the port rejected, its own then; decision 0106).
 */
export async function markEsimInstalled(
  db: Db,
  order: Order,
  position: number,
  at = nowIso(),
): Promise<boolean> {
  const sim = simsOfOrder(order).find((each) => each.position === position);
  if (!sim) return false;
  return db.transaction().execute(async (trx) => {
    const installed = await trx
      .updateTable("esim_activations")
      .set({ installed_at: at })
      .where("order_id", "=", order.ref)
      .where("position", "=", position)
      .where("installed_at", "is", null)
      .returning("iccid")
      .executeTakeFirst();
    if (!installed) return false;
    if (await portInForSim(trx, order.ref, position)) return true;
    await queueEsimActivation(
      trx,
      {
        orderRef: order.ref,
        position,
        iccid: installed.iccid,
        planId: sim.planId,
        accountSub: order.customerSub,
      },
      new Date(at),
    );
    return true;
  });
}

/**
 * - replaced: the old code is dead at the provisioner and forgotten here; the next look at the
 *   order issues a new one;
 * - installed: a phone had already installed it (nothing to replace, and its code stays hidden);
 * - unavailable: the provisioner could not be asked; nothing changed;
 * - unknown: no such eSIM in this order.
 */
export type ReplaceOutcome = "replaced" | "installed" | "unavailable" | "unknown";

/**
 * A customer who lost an eSIM's code, before any phone installed it, asks for another: the
 * provisioner withdraws the old one first (so whoever saw it cannot install the line), then the
 * code is forgotten and the next look at the order issues a new one.
 */
export async function replaceEsimCode(
  db: Db,
  provisioner: EsimProvisioner,
  logger: Pick<Logger, "warn">,
  order: Order,
  position: number,
): Promise<ReplaceOutcome> {
  assertPaidEsimOrder(order);
  const row = (await readActivations(db, order.ref)).get(position);
  if (!row) return "unknown";
  if (row.installed_at !== null) return "installed";
  const generation = Number(row.generation);
  const outcome = await cancelProfile(
    provisioner,
    logger,
    order,
    { iccid: row.iccid, position, generation },
    "eSIM code not replaced: provisioner unavailable",
  );
  if (outcome === "unavailable") return "unavailable";
  if (outcome === "installed") {
    await markEsimInstalled(db, order, position);
    return "installed";
  }
  await db.transaction().execute(async (trx) => {
    // A twin request may have replaced it meanwhile: only the code that was cancelled goes.
    const removed = await trx
      .deleteFrom("esim_activations")
      .where("order_id", "=", order.ref)
      .where("position", "=", position)
      .where("generation", "=", generation)
      .where("installed_at", "is", null)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) return;
    await trx
      .insertInto("esim_replaced_profiles")
      .values({
        order_id: order.ref,
        position,
        generation,
        provisioner: row.provisioner,
        iccid: row.iccid,
        replaced_at: nowIso(),
      })
      .onConflict((conflict) =>
        conflict.columns(["order_id", "position", "generation"]).doNothing(),
      )
      .execute();
  });
  return "replaced";
}

/** The eSIM of an order with this ICCID (its current profile), with the plan bought for it. */
export async function findEsimByIccid(
  db: Db,
  iccid: string,
): Promise<{ order: Order; position: number; planId: string } | null> {
  const row = await db
    .selectFrom("esim_activations")
    .select(["order_id", "position"])
    .where("iccid", "=", iccid)
    .executeTakeFirst();
  if (!row) return null;
  const order = await findOrder(db, row.order_id);
  const sim = order && simsOfOrder(order).find((each) => each.position === Number(row.position));
  return order && sim ? { order, position: sim.position, planId: sim.planId } : null;
}

async function replacedCount(db: Db, orderRef: string, position: number): Promise<number> {
  const { count } = await db
    .selectFrom("esim_replaced_profiles")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("order_id", "=", orderRef)
    .where("position", "=", position)
    .executeTakeFirstOrThrow();
  return Number(count);
}

async function readActivations(db: Db, orderRef: string) {
  const rows = await db
    .selectFrom("esim_activations")
    .selectAll()
    .where("order_id", "=", orderRef)
    .execute();
  return new Map(rows.map((row) => [Number(row.position), row]));
}
