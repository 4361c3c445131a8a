import {
  CHANGE_ATTEMPTS,
  changedMeanwhile,
  cleanText,
  recordStatusChange,
  refuse,
  type ChangeResult,
} from "~/audit/status-changes.server";
import { nowIso, type Db } from "~/db/db.server";
import { normaliseFolio } from "~/db/folio";
import { enqueueMail } from "~/mail-queue/mail-queue.server";

/** A tracking number or a parcel service's name. */
const MAX_TRACKING = 100;

export interface ShipOrderInput {
  /** The parcel service ("Estafeta", "DHL"…); optional. */
  carrier?: string | null;
  trackingNumber: string;
  reason?: string | null;
  actor: string;
}

/**
 * Marks a paid physical-SIM order shipped with its tracking number, and queues the customer's
 * "order_shipped" e-mail, with the audit row, in one transaction (the operator's `npm run ops --
 * enviar`). Refused for an unknown folio, an order not paid, an eSIM order, and an order already
 * shipped (shipping twice changes nothing and sends nothing).
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
    const now = nowIso();
    const applied = await db.transaction().execute(async (trx) => {
      // The write comes first: it takes the database's write lock (waiting the busy timeout for
      // the server), and its WHERE re-checks what was read above.
      const updated = await trx
        .updateTable("orders")
        .set({
          shipped_at: now,
          carrier: carrier.value,
          tracking_number: tracking.value,
          updated_at: now,
        })
        .where("id", "=", order.id)
        .where("status", "=", "paid")
        .where("sim_type", "=", "physical")
        .where("shipped_at", "is", null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return null;
      return recordStatusChange(
        trx,
        {
          subject: "order",
          id: order.id,
          folio: order.folio,
          fromStatus: "paid",
          toStatus: "shipped",
          detail: {
            ...(carrier.value ? { carrier: carrier.value } : {}),
            trackingNumber: tracking.value as string,
          },
          reason: reason.value,
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
  }
  return changedMeanwhile(wanted);
}
