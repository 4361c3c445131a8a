import type { Order } from "./orders.server";

/** One SIM of an order: a line of quantity 2 is two SIMs of the same plan. */
export interface OrderSim {
  /** 0-based among the order's SIMs, in the order of its lines. */
  position: number;
  planId: string;
  planName: string;
}

/**
 * The order's SIMs, one per unit bought, numbered in the order of its lines: the positions the
 * eSIMs' codes and the shipped SIMs' ICCIDs are kept under.
 */
export function simsOfOrder(order: Pick<Order, "lines">): OrderSim[] {
  return order.lines
    .flatMap((line) =>
      Array.from({ length: line.quantity }, () => ({
        planId: line.planId,
        planName: line.planName,
      })),
    )
    .map((sim, position) => ({ position, ...sim }));
}
