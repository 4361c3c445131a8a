import type { Logger } from "pino";
import type { Order } from "~/checkout/orders.server";
import { nowIso, type Db } from "~/db/db.server";
import {
  isEsimProvisioningUnavailable,
  type EsimActivation,
  type EsimProvisioner,
} from "./provisioning";

/** One eSIM of a paid order, as its confirmation shows it. */
export interface StoredActivation {
  /** 0-based among the order's SIMs, in the order of its lines. */
  position: number;
  planName: string;
  activationCode: string;
  iccid: string;
  testCode: boolean;
}

export type OrderActivations =
  | { status: "ready"; activations: StoredActivation[] }
  /** The provisioner could not be reached: the page asks the customer to refresh. */
  | { status: "unavailable" };

/** One entry per SIM: a line of quantity 2 is two eSIMs of the same plan. */
function simsOf(order: Order): Array<{ position: number; planName: string }> {
  return order.lines
    .flatMap((line) => Array.from({ length: line.quantity }, () => line.planName))
    .map((planName, position) => ({ position, planName }));
}

/**
 * The activation codes of a paid eSIM order, issued the first time they are asked for and kept:
 * a code is issued once per order and position, so refreshing the page, a second tab or the
 * e-mail show the same code (a second request to a real SM-DP+ could reserve a second profile).
 */
export async function ensureEsimActivations(
  db: Db,
  provisioner: EsimProvisioner,
  logger: Pick<Logger, "warn">,
  order: Order,
): Promise<OrderActivations> {
  if (order.status !== "paid" || order.simType !== "esim") {
    throw new Error("Only a paid eSIM order has activation codes");
  }
  const sims = simsOf(order);
  const stored = await readActivations(db, order.ref);
  const missing = sims.filter((sim) => !stored.has(sim.position));
  for (const sim of missing) {
    let activation: EsimActivation;
    try {
      activation = await provisioner.issue({ orderRef: order.ref, position: sim.position });
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
    await db
      .insertInto("esim_activations")
      .values({
        order_id: order.ref,
        position: sim.position,
        provisioner: provisioner.name,
        activation_code: activation.activationCode,
        iccid: activation.iccid,
        test_code: activation.testCode ? 1 : 0,
        created_at: nowIso(),
      })
      .onConflict((conflict) => conflict.columns(["order_id", "position"]).doNothing())
      .execute();
  }
  const all = missing.length ? await readActivations(db, order.ref) : stored;
  return {
    status: "ready",
    activations: sims.flatMap((sim) => {
      const row = all.get(sim.position);
      return row
        ? [
            {
              position: sim.position,
              planName: sim.planName,
              activationCode: row.activation_code,
              iccid: row.iccid,
              testCode: Number(row.test_code) === 1,
            },
          ]
        : [];
    }),
  };
}

async function readActivations(db: Db, orderRef: string) {
  const rows = await db
    .selectFrom("esim_activations")
    .selectAll()
    .where("order_id", "=", orderRef)
    .execute();
  return new Map(rows.map((row) => [Number(row.position), row]));
}
