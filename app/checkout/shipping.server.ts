import {
  CHANGE_ATTEMPTS,
  changedMeanwhile,
  cleanText,
  recordStatusChange,
  refuse,
  type ChangeResult,
} from "~/audit/status-changes.server";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import { normaliseFolio } from "~/db/folio";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { simsOfOrder } from "./order-sims";
import { findOrder } from "./orders.server";
import { checkShippedIccids, recordShippedSims, shippedSimCount } from "./shipped-sims.server";

/** A tracking number or a parcel service's name. */
const MAX_TRACKING = 100;

export interface ShipOrderInput {
  /** The parcel service ("Estafeta", "DHL"…); optional. */
  carrier?: string | null;
  trackingNumber: string;
  /**
   * The ICCIDs printed on the SIMs shipped, one per SIM in the order of the order's lines
   * (decision 0092): what the customer activates at /activar. Optional: they may be recorded
   * later (`recordShippedIccids`).
   */
  iccids?: readonly string[];
  reason?: string | null;
  actor: string;
}

/** How many SIMs the order holds (one per unit of each line). */
async function simCount(db: Db, orderId: string): Promise<number> {
  const order = await findOrder(db, orderId);
  return order ? simsOfOrder(order).length : 0;
}

/**
 * Marks a paid physical-SIM order shipped with its tracking number, and queues the customer's
 * "order_shipped" e-mail, with the audit row, in one transaction (the operator's `npm run ops --
 * enviar`), with the ICCIDs of its SIMs when given. Refused for an unknown folio, an order not
 * paid, an eSIM order, an order already shipped (shipping twice changes nothing and sends
 * nothing), and ICCIDs that are not one well-formed, unshipped ICCID per SIM.
 */
export async function shipOrder(
  db: Db,
  folio: string,
  input: ShipOrderInput,
): Promise<ChangeResult> {
  const tracking = cleanText(input.trackingNumber, "el número de guía", {
    required: true,
    max: MAX_TRACKING,
  });
  if (!tracking.ok) return tracking;
  const carrier = cleanText(input.carrier, "la paquetería", { max: MAX_TRACKING });
  if (!carrier.ok) return carrier;
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  const wanted = normaliseFolio(folio);

  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
    const order = await db
      .selectFrom("orders")
      .select([
        "id",
        "folio",
        "status",
        "sim_type",
        "email",
        "shipped_at",
        "carrier",
        "tracking_number",
      ])
      .where("folio", "=", wanted)
      .executeTakeFirst();
    if (!order) return refuse("not_found", `No existe el pedido ${wanted}.`);
    if (order.shipped_at) {
      const sent = [order.carrier, order.tracking_number && `guía ${order.tracking_number}`]
        .filter(Boolean)
        .join(", ");
      return refuse(
        "already_shipped",
        `El pedido ${order.folio} ya está marcado como enviado (${sent}); no se cambió nada.`,
      );
    }
    if (order.status !== "paid") {
      return refuse(
        "not_paid",
        `El pedido ${order.folio} no está pagado (${order.status === "cancelled" ? "cancelado" : "pendiente de pago"}); solo se envía un pedido pagado.`,
      );
    }
    if (order.sim_type !== "physical") {
      return refuse(
        "not_physical",
        `El pedido ${order.folio} es de eSIM: no lleva envío (el cliente recibe su código QR).`,
      );
    }
    let iccids: string[] = [];
    if (input.iccids && input.iccids.length > 0) {
      const checked = await checkShippedIccids(
        db,
        { id: order.id, folio: order.folio, simCount: await simCount(db, order.id) },
        input.iccids,
      );
      if (!checked.ok) return checked;
      iccids = checked.iccids;
    }
    const now = nowIso();
    const tracked = {
      carrier: carrier.value,
      trackingNumber: tracking.value as string,
      reason: reason.value,
    };
    try {
      const applied = await db.transaction().execute(async (trx) => {
        // The write comes first: it takes the database's write lock (waiting the busy timeout
        // for the server), and its WHERE re-checks what was read above.
        const updated = await trx
          .updateTable("orders")
          .set({
            shipped_at: now,
            carrier: tracked.carrier,
            tracking_number: tracked.trackingNumber,
            updated_at: now,
          })
          .where("id", "=", order.id)
          .where("status", "=", "paid")
          .where("sim_type", "=", "physical")
          .where("shipped_at", "is", null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return null;
        await recordShippedSims(trx, order.id, iccids, now);
        return recordStatusChange(
          trx,
          {
            subject: "order",
            id: order.id,
            folio: order.folio,
            fromStatus: "paid",
            toStatus: "shipped",
            detail: {
              ...(tracked.carrier ? { carrier: tracked.carrier } : {}),
              trackingNumber: tracked.trackingNumber,
              ...(iccids.length > 0 ? { iccids: iccids.join(",") } : {}),
            },
            reason: tracked.reason,
            actor: input.actor,
            email: order.email,
          },
          (tx, to) =>
            enqueueMail(tx, {
              dedupeKey: `order-shipped:${order.id}`,
              to,
              template: "order_shipped",
              data: { orderRef: order.id },
            }),
          now,
        );
      });
      if (applied) return applied;
    } catch (error) {
      // An ICCID shipped meanwhile with another order: nothing of this shipment was written,
      // and the next attempt reads and names it.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return changedMeanwhile(wanted);
}

export interface RecordShippedIccidsInput {
  iccids: readonly string[];
  reason?: string | null;
  actor: string;
}

/**
 * The ICCIDs of an order shipped without them (`npm run ops -- enviar <folio> --iccid …`), so that
 * its SIMs can be activated: audited (shipped → shipped, the ICCIDs in the detail), no e-mail.
 * Refused for an order not shipped (ship it with them), one whose ICCIDs are recorded, and
 * ICCIDs that are not one well-formed, unshipped ICCID per SIM.
 */
export async function recordShippedIccids(
  db: Db,
  folio: string,
  input: RecordShippedIccidsInput,
): Promise<ChangeResult> {
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  const wanted = normaliseFolio(folio);
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
    const outcome = await recordOnce(db, wanted, input, reason.value);
    if (outcome) return outcome;
  }
  return changedMeanwhile(wanted);
}

/** One attempt; null when a concurrent change made it fail (the next attempt reads why). */
async function recordOnce(
  db: Db,
  wanted: string,
  input: RecordShippedIccidsInput,
  reason: string | null,
): Promise<ChangeResult | null> {
  const order = await db
    .selectFrom("orders")
    .select(["id", "folio", "sim_type", "shipped_at", "email"])
    .where("folio", "=", wanted)
    .executeTakeFirst();
  if (!order) return refuse("not_found", `No existe el pedido ${wanted}.`);
  if (order.sim_type !== "physical") {
    return refuse(
      "not_physical",
      `El pedido ${order.folio} es de eSIM: no lleva SIM física (su línea se activa al instalar el eSIM).`,
    );
  }
  if (!order.shipped_at) {
    return refuse(
      "invalid_input",
      `El pedido ${order.folio} aún no está enviado: envíalo con --guia <número> y sus --iccid.`,
    );
  }
  if ((await shippedSimCount(db, order.id)) > 0) {
    return refuse(
      "invalid_input",
      `El pedido ${order.folio} ya tiene sus ICCID registrados; no se cambió nada.`,
    );
  }
  const checked = await checkShippedIccids(
    db,
    { id: order.id, folio: order.folio, simCount: await simCount(db, order.id) },
    input.iccids,
  );
  if (!checked.ok) return checked;
  const now = nowIso();
  try {
    return await db.transaction().execute(async (trx) => {
      // Two operators at once: the primary key (order, position) lets one of them through.
      await recordShippedSims(trx, order.id, checked.iccids, now);
      return recordStatusChange(
        trx,
        {
          subject: "order",
          id: order.id,
          folio: order.folio,
          fromStatus: "shipped",
          toStatus: "shipped",
          detail: { iccids: checked.iccids.join(",") },
          reason,
          actor: input.actor,
          email: order.email,
        },
        // The customer was told of the shipment; the ICCIDs are printed on the SIMs themselves.
        async () => false,
        now,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
