import { randomBytes } from "node:crypto";
import type { CartLine } from "~/cart/cart-lines";
import { sql } from "kysely";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import { nextFolio } from "~/db/folio-counter.server";
import type { OrderStatus, OrdersTable } from "~/db/schema";
import { isSimType, type SimType } from "~/catalog/terms";
import type { CheckoutInput } from "./checkout-schema";
import type { SealedBox } from "~/lib/sealed-box.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { keepOrderPortIns } from "~/portability/order-port-ins.server";
import { keepOrderHolder } from "~/registration/order-holders.server";
import type { CheckoutHolder } from "~/registration/holder";
import type { RegistrationKeys } from "~/registration/registrations.server";
import { reorderKey } from "./reorder-key";

export const ORDER_SERIES = "PED";

export interface OrderLine {
  planId: string;
  planName: string;
  unitPrice: number;
  quantity: number;
  lineTotal: number;
}

export interface Order {
  /** The unguessable reference that opens the confirmation page. */
  ref: string;
  folio: string;
  status: OrderStatus;
  total: number;
  createdAt: string;
  paidAt: string | null;
  /** The Cognito `sub` of the customer signed in when ordering; null for a guest. */
  customerSub: string | null;
  customer: {
    fullName: string;
    email: string;
    phoneNumber: string;
  };
  simType: SimType;
  /** The physical SIM's shipment, once the operator shipped it. */
  shipment: { shippedAt: string; carrier: string | null; trackingNumber: string | null } | null;
  /** Where the physical SIM goes; null for an eSIM order. */
  delivery: {
    street: string;
    exteriorNumber: string;
    interiorNumber: string | null;
    neighborhood: string;
    postalCode: string;
    municipality: string;
    state: string;
  } | null;
  lines: OrderLine[];
}

/** 128 random bits: guessing a reference is as hopeless as guessing a key. */
export function newOrderRef(): string {
  return randomBytes(16).toString("base64url");
}

export interface PlaceOrderInput {
  idempotencyKey: string;
  customer: Omit<CheckoutInput, "idempotency_key" | "payment" | "holder" | "port_ins">;
  /**
   * Who will hold the order's lines, kept sealed by app/registration in the order's transaction
   * until they are registered (decision 0101). Absent only for orders made outside the checkout
   * form (tests, fixtures): their lines are left without registration when activated.
   */
  holder?: { holder: CheckoutHolder; keys: RegistrationKeys };
  /**
   * The numbers to keep, one per SIM that keeps one, kept by app/portability in the order's
   * transaction with their NIP sealed, and filed as portability requests when the order is paid
   * (decision 0106). They are requested in the holder's name and with the holder's CURP.
   */
  portIns?: { choices: CheckoutInput["port_ins"]; nipBox: SealedBox };
  lines: readonly CartLine[];
  /** The signed-in customer's Cognito `sub`, so the order shows in their account. */
  customerSub?: string | null;
}

/**
 * Creates the order once per idempotency key: a double click, a resubmitted form or a retried
 * request returns the order the first submission created, whatever it sends.
 */
export async function placeOrder(
  db: Db,
  input: PlaceOrderInput,
): Promise<{ order: Order; created: boolean }> {
  if (input.lines.length === 0) throw new Error("An order needs at least one line");
  const existing = await findOrderByIdempotencyKey(db, input.idempotencyKey);
  if (existing) return { order: existing, created: false };
  try {
    const written = await db.transaction().execute(async (trx) => {
      const again = await trx
        .selectFrom("orders")
        .select("id")
        .where("idempotency_key", "=", input.idempotencyKey)
        .executeTakeFirst();
      if (again) return { ref: again.id, created: false };
      const now = nowIso();
      const total = input.lines.reduce((sum, line) => sum + line.lineTotal, 0);
      const { delivery } = input.customer;
      const id = newOrderRef();
      const row: OrdersTable = {
        id,
        // Replaced by the folio as the transaction's last write (below); no one else sees it.
        folio: id,
        idempotency_key: input.idempotencyKey,
        status: "pending_payment",
        total,
        full_name: input.customer.full_name,
        email: input.customer.email,
        phone_number: input.customer.phone_number,
        sim_type: input.customer.sim_type,
        street: delivery?.street ?? "",
        exterior_number: delivery?.exterior_number ?? "",
        interior_number: delivery?.interior_number || null,
        neighborhood: delivery?.neighborhood ?? "",
        postal_code: delivery?.postal_code ?? "",
        municipality: delivery?.municipality ?? "",
        state: delivery?.state ?? "",
        terms_accepted_at: now,
        created_at: now,
        updated_at: now,
        paid_at: null,
        customer_sub: input.customerSub ?? null,
        shipped_at: null,
        carrier: null,
        tracking_number: null,
      };
      await trx.insertInto("orders").values(row).execute();
      await trx
        .insertInto("order_lines")
        .values(
          input.lines.map((line, position) => ({
            order_id: row.id,
            position,
            plan_id: line.plan.id,
            plan_name: line.plan.name,
            unit_price: line.plan.price,
            quantity: line.quantity,
            line_total: line.lineTotal,
          })),
        )
        .execute();
      if (input.holder) {
        await keepOrderHolder(trx, input.holder.keys, {
          orderRef: row.id,
          holder: input.holder.holder,
          lines: input.lines.reduce((sum, line) => sum + line.quantity, 0),
          now: new Date(now),
        });
      }
      const portIns = input.portIns?.choices ?? [];
      if (portIns.length > 0) {
        const holder = input.holder?.holder;
        // The checkout's schema asks a CURP of a holder whose order keeps a number.
        if (!holder?.curp) throw new Error("A number to keep needs the holder's CURP");
        await keepOrderPortIns(trx, input.portIns!.nipBox, {
          orderRef: row.id,
          holder: { full_name: holder.full_name, curp: holder.curp },
          portIns,
          now: new Date(now),
        });
      }
      await enqueueMail(trx, {
        dedupeKey: `order-received:${row.id}`,
        to: row.email,
        template: "order_received",
        data: { orderRef: row.id },
      });
      // The folio last: its series' counter row stays locked from here to the commit, so orders
      // placed together queue for one statement, not for the whole transaction (issue 33).
      await trx
        .updateTable("orders")
        .set({ folio: await nextFolio(trx, ORDER_SERIES) })
        .where("id", "=", row.id)
        .execute();
      return { ref: row.id, created: true };
    });
    const order = await findOrder(db, written.ref);
    if (!order) throw new Error("The order just written cannot be read");
    return { order, created: written.created };
  } catch (error) {
    // A concurrent submission with the same key won the race (PostgreSQL): use its order.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findOrderByIdempotencyKey(db, input.idempotencyKey);
    if (!winner) throw error;
    return { order: winner, created: false };
  }
}

/**
 * The order of a checkout form: placed once per key (`placeOrder`). When the order of that key
 * was cancelled (its voucher or transfer expired unpaid), buying the same cart again is a new
 * order, under `reorderKey` of the cancelled one's key: found again, not placed again, when the
 * form comes twice. Answers the key the order is under.
 */
export async function placeCheckoutOrder(
  db: Db,
  input: PlaceOrderInput,
): Promise<{ order: Order; created: boolean; idempotencyKey: string }> {
  let { idempotencyKey } = input;
  let placed = await placeOrder(db, input);
  // Each cancelled order on the way had a voucher of its own expire: the chain is short.
  while (placed.order.status === "cancelled") {
    idempotencyKey = reorderKey(idempotencyKey);
    placed = await placeOrder(db, { ...input, idempotencyKey });
  }
  return { ...placed, idempotencyKey };
}

/** The order a checkout form with this idempotency key created, if any. */
export async function findOrderByIdempotencyKey(db: Db, key: string): Promise<Order | null> {
  const row = await db
    .selectFrom("orders")
    .select("id")
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return row ? findOrder(db, row.id) : null;
}

export async function findOrder(db: Db, ref: string): Promise<Order | null> {
  const row = await db.selectFrom("orders").selectAll().where("id", "=", ref).executeTakeFirst();
  if (!row) return null;
  const lines = await db
    .selectFrom("order_lines")
    .selectAll()
    .where("order_id", "=", ref)
    .orderBy("position")
    .execute();
  const simType: SimType = isSimType(row.sim_type) ? row.sim_type : "physical";
  return {
    ref: row.id,
    folio: row.folio,
    status: row.status,
    total: Number(row.total),
    createdAt: row.created_at,
    paidAt: row.paid_at,
    customerSub: row.customer_sub,
    customer: { fullName: row.full_name, email: row.email, phoneNumber: row.phone_number },
    simType,
    shipment: row.shipped_at
      ? { shippedAt: row.shipped_at, carrier: row.carrier, trackingNumber: row.tracking_number }
      : null,
    delivery:
      simType === "esim"
        ? null
        : {
            street: row.street,
            exteriorNumber: row.exterior_number,
            interiorNumber: row.interior_number,
            neighborhood: row.neighborhood,
            postalCode: row.postal_code,
            municipality: row.municipality,
            state: row.state,
          },
    lines: lines.map((line) => ({
      planId: line.plan_id,
      planName: line.plan_name,
      unitPrice: Number(line.unit_price),
      quantity: Number(line.quantity),
      lineTotal: Number(line.line_total),
    })),
  };
}

/**
 * The signed-in customer as orders are looked up for them: `emailProven` only when the store
 * takes their e-mail as proved theirs (`asOrderOwner`, decision 0081).
 */
export interface OrderOwner {
  sub: string;
  email: string;
  emailProven: boolean;
}

/** Whether this signed-in customer owns the order: placed signed in, or as a guest with their proved e-mail. */
export function customerOwnsOrder(
  order: Pick<Order, "customerSub" | "customer">,
  customer: OrderOwner | null,
): boolean {
  if (!customer) return false;
  if (order.customerSub !== null) return order.customerSub === customer.sub;
  return (
    customer.emailProven &&
    order.customer.email.trim().toLowerCase() === customer.email.trim().toLowerCase()
  );
}

/**
 * The order with this folio placed with this e-mail (any case), or null: a wrong folio and a
 * wrong e-mail look the same to the caller.
 */
export async function findOrderByFolioAndEmail(
  db: Db,
  folio: string,
  email: string,
): Promise<Order | null> {
  const row = await db
    .selectFrom("orders")
    .select(["id", "email"])
    .where("folio", "=", folio)
    .executeTakeFirst();
  if (!row || row.email.trim().toLowerCase() !== email.trim().toLowerCase()) return null;
  return findOrder(db, row.id);
}

/** Marks a pending order paid; false when it was already paid (the transition happens once). */
export async function markOrderPaid(db: Db, ref: string, paidAt: string): Promise<boolean> {
  const result = await db
    .updateTable("orders")
    .set({ status: "paid", paid_at: paidAt, updated_at: paidAt })
    .where("id", "=", ref)
    .where("status", "=", "pending_payment")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels an order still waiting for payment (its voucher expired); false otherwise. */
export async function cancelOrder(db: Db, ref: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable("orders")
    .set({ status: "cancelled", updated_at: at })
    .where("id", "=", ref)
    .where("status", "=", "pending_payment")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface CustomerOrderSummary {
  ref: string;
  folio: string;
  status: OrderStatus;
  total: number;
  createdAt: string;
}

/**
 * Orders the customer placed while signed in, and, once their e-mail is proved theirs, the orders
 * placed as a guest with that e-mail; newest first.
 */
export async function listCustomerOrders(
  db: Db,
  customer: OrderOwner,
  limit = 10,
): Promise<CustomerOrderSummary[]> {
  const email = customer.email.trim().toLowerCase();
  const rows = await db
    .selectFrom("orders")
    .select(["id", "folio", "status", "total", "created_at"])
    .where((eb) =>
      customer.emailProven
        ? eb.or([
            eb("customer_sub", "=", customer.sub),
            eb.and([eb("customer_sub", "is", null), eb(sql<string>`lower(email)`, "=", email)]),
          ])
        : eb("customer_sub", "=", customer.sub),
    )
    .orderBy("created_at", "desc")
    .orderBy("folio", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ref: row.id,
    folio: row.folio,
    status: row.status,
    total: Number(row.total),
    createdAt: row.created_at,
  }));
}
