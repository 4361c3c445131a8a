import type { Transaction } from "kysely";
import { refuse, type Refusal } from "~/audit/status-changes.server";
import type { Db } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { isWellFormedIccid } from "~/esim/provisioning";
import { findOrder, type Order } from "./orders.server";
import { simsOfOrder, type OrderSim } from "./order-sims";

/**
 * The physical SIMs an order shipped with, each with the ICCID printed on it (table
 * shipped_sims, decision 0092): the operator records them when shipping (`npm run ops --
 * enviar <folio> --guia … --iccid …`), and the customer activates a SIM at /activar with the
 * ICCID they read on it. A SIM card ships once: an ICCID names one SIM of one order.
 */

type Executor = Db | Transaction<Database>;

/** What the operator typed, without the spaces and dashes an ICCID is printed with. */
export function normaliseIccid(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** What one shipped SIM is for: the line its activation makes. */
export interface ShippedSim extends OrderSim {
  orderRef: string;
  folio: string;
  iccid: string;
  /** The order it shipped with: whose it is (an account's, or a guest's e-mail). */
  order: Order;
}

/**
 * The ICCIDs the operator gave for an order's SIMs, one per SIM in the order of its lines,
 * checked: well formed (89, 19 or 20 digits, Luhn), none repeated, as many as the SIMs, and none
 * already shipped with another order. A refusal names the ICCID at fault, in Spanish.
 */
export async function checkShippedIccids(
  db: Executor,
  order: { id: string; folio: string; simCount: number },
  given: readonly string[],
): Promise<{ ok: true; iccids: string[] } | Refusal> {
  const iccids = given.map(normaliseIccid).filter((iccid) => iccid !== "");
  for (const iccid of iccids) {
    if (!isWellFormedIccid(iccid)) {
      return refuse(
        "invalid_input",
        `El ICCID ${iccid} no es válido: son 19 o 20 dígitos que empiezan con 89 y pasan la verificación de Luhn.`,
      );
    }
  }
  const repeated = iccids.find((iccid, index) => iccids.indexOf(iccid) !== index);
  if (repeated) return refuse("invalid_input", `El ICCID ${repeated} está repetido.`);
  if (iccids.length !== order.simCount) {
    return refuse(
      "invalid_input",
      `El pedido ${order.folio} lleva ${order.simCount === 1 ? "1 SIM" : `${order.simCount} SIM`}: ` +
        `indica ${order.simCount === 1 ? "su ICCID" : `${order.simCount} ICCID separados por comas, en el orden de sus planes`} (recibí ${iccids.length}).`,
    );
  }
  const taken = await db
    .selectFrom("shipped_sims")
    .innerJoin("orders", "orders.id", "shipped_sims.order_id")
    .select(["shipped_sims.iccid", "orders.folio"])
    .where("shipped_sims.iccid", "in", iccids)
    .executeTakeFirst();
  if (taken) {
    return refuse(
      "invalid_input",
      `El ICCID ${taken.iccid} ya se registró con el pedido ${taken.folio}; no se cambió nada.`,
    );
  }
  return { ok: true, iccids };
}

/** Records the ICCIDs of an order's SIMs, in the caller's transaction (position = index). */
export async function recordShippedSims(
  trx: Executor,
  orderId: string,
  iccids: readonly string[],
  at: string,
): Promise<void> {
  if (iccids.length === 0) return;
  await trx
    .insertInto("shipped_sims")
    .values(
      iccids.map((iccid, position) => ({ order_id: orderId, position, iccid, recorded_at: at })),
    )
    .execute();
}

/** How many ICCIDs were recorded for the order (0: none yet). */
export async function shippedSimCount(db: Executor, orderId: string): Promise<number> {
  const { count } = await db
    .selectFrom("shipped_sims")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("order_id", "=", orderId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The positions of the order's SIMs whose ICCIDs were recorded, in order. */
export async function shippedSimPositions(db: Executor, orderId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("shipped_sims")
    .select("position")
    .where("order_id", "=", orderId)
    .orderBy("position")
    .execute();
  return rows.map((row) => Number(row.position));
}

/** The shipped SIM with this ICCID (as printed on it), or null when no order shipped it. */
export async function findShippedSim(db: Db, iccid: string): Promise<ShippedSim | null> {
  const row = await db
    .selectFrom("shipped_sims")
    .select(["order_id", "position", "iccid"])
    .where("iccid", "=", normaliseIccid(iccid))
    .executeTakeFirst();
  if (!row) return null;
  const order = await findOrder(db, row.order_id);
  const sim = order
    ? simsOfOrder(order).find((each) => each.position === Number(row.position))
    : null;
  if (!order || !sim) return null;
  return {
    ...sim,
    orderRef: order.ref,
    folio: order.folio,
    iccid: row.iccid,
    order,
  };
}
