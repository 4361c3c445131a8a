import type { Db } from "~/db/db.server";
import { simsOfOrder } from "~/checkout/order-sims";
import type { Order } from "~/checkout/orders.server";
import { shippedSimPositions } from "~/checkout/shipped-sims.server";
import { orderLineActivations, type LineActivationView } from "./activations.server";

/** One physical SIM of a shipped order on its page: its plan, and its line once activated. */
export interface ShippedSimLineView {
  position: number;
  planName: string;
  /** null: not activated yet (the page leads to /activar). */
  line: LineActivationView | null;
}

/**
 * The physical SIMs of a shipped order whose ICCIDs the operator recorded, each with its line:
 * not activated yet, being activated, or its number. null for any other order (an eSIM order,
 * one not shipped, or shipped before ICCIDs were recorded: nothing to activate at /activar yet).
 */
export async function shippedSimLines(db: Db, order: Order): Promise<ShippedSimLineView[] | null> {
  if (order.status !== "paid" || order.simType !== "physical" || !order.shipment) return null;
  const positions = await shippedSimPositions(db, order.ref);
  if (positions.length === 0) return null;
  const lines = await orderLineActivations(db, "sim", order.ref, positions);
  return simsOfOrder(order)
    .filter((sim) => positions.includes(sim.position))
    .map((sim) => ({
      position: sim.position,
      planName: sim.planName,
      line: lines.get(sim.position) ?? null,
    }));
}
