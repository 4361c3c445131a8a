import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "~/db/db.server";
import { nextFolio } from "~/db/folio-counter.server";
import type { Database, OrderPortInState, PortabilityStatus } from "~/db/schema";
import type { SealedBox } from "~/lib/sealed-box.server";
import { queueEsimActivation } from "~/line/activations.server";
import type { CarrierId } from "./carriers";
import { OPEN_STATUSES, PORTABILITY_SERIES, recordRequest } from "./requests.server";

/**
 * The numbers a checkout asked to keep (issue 34, decision 0106). Each SIM of an order may bring
 * a number: the number, its carrier and its NIP go with the order, the NIP sealed exactly as a
 * request's, and wait for the payment. When the order is paid, each becomes a portability
 * request of its own — its folio, its status page, its "received" e-mail — whose SIM is that one
 * of the order: its ICCID is read from the order when the port is completed, and its own
 * activation (a new number) waits for the port instead. An order that expires unpaid forgets
 * them. Only this module writes `order_port_ins`; the checkout and the payment call it in their
 * transactions.
 */

type Executor = Db | Transaction<Database>;

/** A number to keep, as the checkout hands it over: the SIM that receives it and the number. */
export interface OrderPortInInput {
  /** The order's SIM (0-based, in the order of its lines). */
  position: number;
  phone_number: string;
  current_carrier: CarrierId;
  nip: string;
}

/** Why a number was not filed when its order was paid. */
export type PortInRefusal = "open-request";

/**
 * Keeps an order's numbers to keep, in the order's transaction: one row per SIM, its NIP sealed
 * with the requests' key and bound to the row's id, which the request filed for it takes. The
 * holder's name and CURP are the request's (the donor line's holder is the lines' holder).
 */
export async function keepOrderPortIns(
  trx: Executor,
  nipBox: SealedBox,
  input: {
    orderRef: string;
    holder: { full_name: string; curp: string };
    portIns: readonly OrderPortInInput[];
    now: Date;
  },
): Promise<void> {
  if (input.portIns.length === 0) return;
  const at = input.now.toISOString();
  await trx
    .insertInto("order_port_ins")
    .values(
      input.portIns.map((portIn) => {
        const id = randomBytes(16).toString("base64url");
        return {
          id,
          order_ref: input.orderRef,
          position: portIn.position,
          phone_number: portIn.phone_number,
          current_carrier: portIn.current_carrier,
          state: "waiting" as const,
          reason: null,
          nip_sealed: nipBox.seal(portIn.nip, id),
          full_name: input.holder.full_name,
          curp: input.holder.curp,
          created_at: at,
          updated_at: at,
        };
      }),
    )
    .execute();
}

/** Forgets an order's numbers to keep: the order was cancelled unpaid (its voucher expired). */
export async function forgetOrderPortIns(trx: Executor, orderRef: string): Promise<void> {
  await trx
    .deleteFrom("order_port_ins")
    .where("order_ref", "=", orderRef)
    .where("state", "=", "waiting")
    .execute();
}

/** What filing an order's numbers did: the requests filed, and the numbers refused. */
export interface FiledPortIns {
  filed: number;
  refused: number;
}

/**
 * Files a paid order's numbers to keep as portability requests, in the transaction that records
 * the payment (it runs once: the payment changes state once). Each gets its folio and the
 * "received" e-mail, to the order's address and account. A number that has a request in process
 * by then is not filed a second time: it is marked refused, its NIP dropped, and the order's page
 * says so — the purchase itself stands.
 */
export async function fileOrderPortIns(
  trx: Db,
  orderRef: string,
  now: Date,
): Promise<FiledPortIns> {
  const waiting = await trx
    .selectFrom("order_port_ins")
    .selectAll()
    .where("order_ref", "=", orderRef)
    .where("state", "=", "waiting")
    .orderBy("position")
    .execute();
  const outcome: FiledPortIns = { filed: 0, refused: 0 };
  if (waiting.length === 0) return outcome;
  const order = await trx
    .selectFrom("orders")
    .select(["email", "customer_sub", "terms_accepted_at"])
    .where("id", "=", orderRef)
    .executeTakeFirstOrThrow();
  const at = now.toISOString();
  for (const row of waiting) {
    const busy = await trx
      .selectFrom("portability_requests")
      .select("id")
      .where("phone_number", "=", row.phone_number)
      .where("status", "in", OPEN_STATUSES)
      .executeTakeFirst();
    const written =
      !busy &&
      row.nip_sealed !== null &&
      row.full_name !== null &&
      row.curp !== null &&
      (await recordRequest(
        trx,
        {
          id: row.id,
          folio: await nextFolio(trx, PORTABILITY_SERIES, now),
          idempotency_key: `order:${orderRef}:${row.position}`,
          phone_number: row.phone_number,
          // Sealed to this id at checkout: the request, with the same id, opens it.
          nip_sealed: row.nip_sealed,
          full_name: row.full_name,
          email: order.email,
          curp: row.curp,
          current_carrier: row.current_carrier,
          // Read from the order's SIM when the port completes (`orderSimIccid`).
          iccid: null,
          status: "received",
          terms_accepted_at: order.terms_accepted_at,
          created_at: at,
          updated_at: at,
          scheduled_for: null,
          rejection_reason: null,
          customer_sub: order.customer_sub,
        },
        // A request for the number written meanwhile by someone else is not an error here.
        { ifFree: true },
      ));
    const state: OrderPortInState = written ? "filed" : "refused";
    await trx
      .updateTable("order_port_ins")
      // The request keeps the NIP, name and CURP now; a refused number keeps none of them.
      .set({
        state,
        reason: written ? null : ("open-request" satisfies PortInRefusal),
        nip_sealed: null,
        full_name: null,
        curp: null,
        updated_at: at,
      })
      .where("id", "=", row.id)
      .where("state", "=", "waiting")
      .execute();
    outcome[written ? "filed" : "refused"] += 1;
  }
  return outcome;
}

/** One number an order keeps, as its page shows it. */
export interface OrderPortIn {
  /** The request's id once filed (the row's): for this browser's access, never for a page. */
  id: string;
  position: number;
  phoneNumber: string;
  currentCarrier: string;
  state: OrderPortInState;
  reason: PortInRefusal | null;
  /** The request filed for it: its folio and status. */
  request: {
    folio: string;
    status: PortabilityStatus;
    scheduledFor: string | null;
    rejectionReason: string | null;
  } | null;
}

/** The numbers an order keeps, by SIM, each with its request once filed. */
export async function orderPortIns(db: Executor, orderRef: string): Promise<OrderPortIn[]> {
  const rows = await db
    .selectFrom("order_port_ins")
    .leftJoin("portability_requests", "portability_requests.id", "order_port_ins.id")
    .select([
      "order_port_ins.id",
      "order_port_ins.position",
      "order_port_ins.phone_number",
      "order_port_ins.current_carrier",
      "order_port_ins.state",
      "order_port_ins.reason",
      "portability_requests.folio",
      "portability_requests.status",
      "portability_requests.scheduled_for",
      "portability_requests.rejection_reason",
    ])
    .where("order_port_ins.order_ref", "=", orderRef)
    .orderBy("order_port_ins.position")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    position: Number(row.position),
    phoneNumber: row.phone_number,
    currentCarrier: row.current_carrier,
    state: row.state,
    reason: row.reason === "open-request" ? "open-request" : null,
    request:
      row.folio && row.status
        ? {
            folio: row.folio,
            status: row.status,
            scheduledFor: row.scheduled_for,
            rejectionReason: row.rejection_reason,
          }
        : null,
  }));
}

/**
 * The request whose number this SIM of the order is to receive, unless it was rejected: while
 * there is one, the SIM's own activation (with a new number) waits, since a SIM that already
 * serves a line cannot take a ported number (decision 0092). A number still waiting for the
 * order's payment holds it too. Null when the SIM is free.
 */
export async function portInForSim(
  db: Executor,
  orderRef: string,
  position: number,
): Promise<{ requestId: string; status: PortabilityStatus | "waiting" } | null> {
  const row = await db
    .selectFrom("order_port_ins")
    .leftJoin("portability_requests", "portability_requests.id", "order_port_ins.id")
    .select(["order_port_ins.id", "order_port_ins.state", "portability_requests.status"])
    .where("order_port_ins.order_ref", "=", orderRef)
    .where("order_port_ins.position", "=", position)
    .executeTakeFirst();
  if (!row || row.state === "refused") return null;
  if (row.state === "waiting") return { requestId: row.id, status: "waiting" };
  if (!row.status || row.status === "rejected") return null;
  return { requestId: row.id, status: row.status };
}

/** The order's SIM a request filed from a checkout goes to; null for any other request. */
export async function orderSimOf(
  db: Executor,
  requestId: string,
): Promise<{ orderRef: string; position: number } | null> {
  const row = await db
    .selectFrom("order_port_ins")
    .select(["order_ref", "position"])
    .where("id", "=", requestId)
    .where("state", "=", "filed")
    .executeTakeFirst();
  return row ? { orderRef: row.order_ref, position: Number(row.position) } : null;
}

/**
 * The ICCID of the SIM a request filed from a checkout goes to: its order's eSIM profile at that
 * position (reserved when the paid order is first shown; a replaced code's new one), or the
 * physical SIM the operator shipped there. Null for another request, or while not yet known.
 */
export async function orderSimIccid(db: Executor, requestId: string): Promise<string | null> {
  const sim = await orderSimOf(db, requestId);
  if (!sim) return null;
  const esim = await db
    .selectFrom("esim_activations")
    .select("iccid")
    .where("order_id", "=", sim.orderRef)
    .where("position", "=", sim.position)
    .executeTakeFirst();
  if (esim) return esim.iccid;
  const shipped = await db
    .selectFrom("shipped_sims")
    .select("iccid")
    .where("order_id", "=", sim.orderRef)
    .where("position", "=", sim.position)
    .executeTakeFirst();
  return shipped?.iccid ?? null;
}

/** The plan bought with the order's SIM at `position`: its line starts with that plan. */
async function planOfSim(db: Executor, orderRef: string, position: number) {
  const lines = await db
    .selectFrom("order_lines")
    .select(["plan_id", "quantity"])
    .where("order_id", "=", orderRef)
    .orderBy("position")
    .execute();
  let first = 0;
  for (const line of lines) {
    const quantity = Number(line.quantity);
    if (position < first + quantity) return line.plan_id;
    first += quantity;
  }
  return null;
}

/**
 * A rejected request frees its order's SIM (in the rejection's transaction): an eSIM installed
 * while it waited for the port gets its own line now, with a new number, as any installed eSIM
 * does. A physical SIM is activated as usual when its customer types its ICCID at /activar.
 */
export async function releaseOrderSim(trx: Executor, requestId: string, at: Date): Promise<void> {
  const sim = await orderSimOf(trx, requestId);
  if (!sim) return;
  const installed = await trx
    .selectFrom("esim_activations")
    .innerJoin("orders", "orders.id", "esim_activations.order_id")
    .select(["esim_activations.iccid", "orders.customer_sub"])
    .where("esim_activations.order_id", "=", sim.orderRef)
    .where("esim_activations.position", "=", sim.position)
    .where("esim_activations.installed_at", "is not", null)
    .executeTakeFirst();
  if (!installed) return;
  const planId = await planOfSim(trx, sim.orderRef, sim.position);
  if (!planId) return;
  await queueEsimActivation(
    trx,
    {
      orderRef: sim.orderRef,
      position: sim.position,
      iccid: installed.iccid,
      planId,
      accountSub: installed.customer_sub,
    },
    at,
  );
}
