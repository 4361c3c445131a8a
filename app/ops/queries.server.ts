import { sql } from "kysely";
import type { Db } from "~/db/db.server";
import type { LineJobState, OrderStatus, PortabilityStatus, TopupStatus } from "~/db/schema";
import { statusChangesOf, type StatusChangeRow, type Subject } from "~/audit/status-changes.server";
import { normaliseFolio } from "~/db/folio";
import { mexicoCityRange } from "~/lib/mexico-city-days";

/**
 * What the operator lists and exports. Dates are Mexico City days (YYYY-MM-DD, both ends
 * included); newest first. Each row has what running the store needs: who, what, how much, and
 * where it stands (tracking number, scheduled date, rejection reason). The NIP is never read.
 */
export interface ListFilter<S extends string> {
  /** First day, YYYY-MM-DD (Mexico City). */
  from?: string;
  /** Last day, YYYY-MM-DD (Mexico City), included. */
  to?: string;
  status?: S;
}

/** An order's status as the operator sees it: a paid order whose SIM went out is "shipped". */
export type OrderListStatus = OrderStatus | "shipped";

export interface OrderRow {
  /** The unguessable reference (the order's id). */
  ref: string;
  folio: string;
  createdAt: string;
  status: OrderListStatus;
  total: number;
  fullName: string;
  email: string;
  phoneNumber: string;
  simType: string;
  /** "2× Conecta 150, 1× Conecta 250". */
  lines: string;
  /** One line, for the shipping label; null for an eSIM order. */
  address: string | null;
  paidAt: string | null;
  shippedAt: string | null;
  carrier: string | null;
  trackingNumber: string | null;
}

export interface TopupRow {
  id: string;
  folio: string;
  createdAt: string;
  status: TopupStatus;
  amount: number;
  phoneNumber: string;
  email: string | null;
  paidAt: string | null;
  /**
   * Whether the paid top-up reached its line (app/line/line-jobs.server.ts): pending (queued, or
   * the BSS out of reach), done, or refused by the BSS (`error`: its reason); null when nothing
   * was queued (unpaid, or paid before top-ups were applied).
   */
  lineJob: { state: LineJobState; attempts: number; error: string | null } | null;
}

export interface PortabilityRow {
  id: string;
  folio: string;
  createdAt: string;
  status: PortabilityStatus;
  phoneNumber: string;
  fullName: string;
  email: string;
  /** An id of app/portability/carriers.ts. */
  currentCarrier: string;
  /** The request's; for one filed with an order, its SIM's once reserved or shipped. */
  iccid: string | null;
  /** YYYY-MM-DD, once scheduled. */
  scheduledFor: string | null;
  rejectionReason: string | null;
  updatedAt: string;
  /** The order it was filed with ("Quiero conservar mi número" at checkout), if any. */
  orderFolio?: string | null;
}

/** The instants of the range; a malformed date or an inverted range throws a RangeError. */
function instants(filter: ListFilter<string>) {
  return mexicoCityRange({ from: filter.from, to: filter.to });
}

export interface OrderFilter extends ListFilter<OrderListStatus> {
  /** Only physical-SIM orders (those shipped) or only eSIM orders. */
  simType?: "physical" | "esim";
}

export async function listOrders(db: Db, filter: OrderFilter = {}): Promise<OrderRow[]> {
  const { fromInstant, toInstant } = instants(filter);
  let query = db.selectFrom("orders").selectAll();
  if (fromInstant) query = query.where("created_at", ">=", fromInstant);
  if (toInstant) query = query.where("created_at", "<", toInstant);
  if (filter.status === "shipped") {
    query = query.where("shipped_at", "is not", null);
  } else if (filter.status) {
    query = query.where("status", "=", filter.status).where("shipped_at", "is", null);
  }
  if (filter.simType) query = query.where("sim_type", "=", filter.simType);
  const rows = await query.orderBy("created_at", "desc").orderBy("folio", "desc").execute();
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom("order_lines")
    .select(["order_id", "plan_name", "quantity"])
    .where(
      "order_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("order_id")
    .orderBy("position")
    .execute();
  const linesByOrder = new Map<string, string[]>();
  for (const line of lines) {
    const list = linesByOrder.get(line.order_id) ?? [];
    list.push(`${Number(line.quantity)}× ${line.plan_name}`);
    linesByOrder.set(line.order_id, list);
  }
  return rows.map((row) => ({
    ref: row.id,
    folio: row.folio,
    createdAt: row.created_at,
    status: row.shipped_at ? "shipped" : row.status,
    total: Number(row.total),
    fullName: row.full_name,
    email: row.email,
    phoneNumber: row.phone_number,
    simType: row.sim_type,
    lines: (linesByOrder.get(row.id) ?? []).join(", "),
    address:
      row.sim_type === "esim"
        ? null
        : [
            `${row.street} ${row.exterior_number}${row.interior_number ? ` int. ${row.interior_number}` : ""}`,
            row.neighborhood,
            `C.P. ${row.postal_code}`,
            row.municipality,
            row.state,
          ].join(", "),
    paidAt: row.paid_at,
    shippedAt: row.shipped_at,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
  }));
}

export async function listTopups(
  db: Db,
  filter: ListFilter<TopupStatus> = {},
): Promise<TopupRow[]> {
  const { fromInstant, toInstant } = instants(filter);
  let query = db
    .selectFrom("topups")
    // Its application to the line: the job named after it (~/line/line-jobs.server.ts topupJobId).
    .leftJoin("line_jobs", (join) =>
      join.on("line_jobs.id", "=", sql<string>`${sql.lit("topup:")} || topups.id`),
    )
    .selectAll("topups")
    .select([
      "line_jobs.state as job_state",
      "line_jobs.attempts as job_attempts",
      "line_jobs.last_error as job_error",
    ]);
  if (fromInstant) query = query.where("topups.created_at", ">=", fromInstant);
  if (toInstant) query = query.where("topups.created_at", "<", toInstant);
  if (filter.status) query = query.where("topups.status", "=", filter.status);
  const rows = await query
    .orderBy("topups.created_at", "desc")
    .orderBy("topups.folio", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    folio: row.folio,
    createdAt: row.created_at,
    status: row.status,
    amount: Number(row.amount),
    phoneNumber: row.phone_number,
    email: row.email,
    paidAt: row.paid_at,
    lineJob: row.job_state
      ? { state: row.job_state, attempts: Number(row.job_attempts), error: row.job_error }
      : null,
  }));
}

export async function listPortabilityRequests(
  db: Db,
  filter: ListFilter<PortabilityStatus> = {},
): Promise<PortabilityRow[]> {
  const { fromInstant, toInstant } = instants(filter);
  let query = db
    .selectFrom("portability_requests")
    // A request filed with an order (decision 0106): the order, and its SIM's ICCID once known.
    .leftJoin("order_port_ins", (join) =>
      join
        .onRef("order_port_ins.id", "=", "portability_requests.id")
        .on("order_port_ins.state", "=", "filed"),
    )
    .leftJoin("orders", "orders.id", "order_port_ins.order_ref")
    .leftJoin("esim_activations", (join) =>
      join
        .onRef("esim_activations.order_id", "=", "order_port_ins.order_ref")
        .onRef("esim_activations.position", "=", "order_port_ins.position"),
    )
    .leftJoin("shipped_sims", (join) =>
      join
        .onRef("shipped_sims.order_id", "=", "order_port_ins.order_ref")
        .onRef("shipped_sims.position", "=", "order_port_ins.position"),
    )
    // Everything but the sealed NIP: it is for the porting process, never for a list or a file.
    .select([
      "portability_requests.id",
      "portability_requests.folio",
      "portability_requests.created_at",
      "portability_requests.updated_at",
      "portability_requests.status",
      "portability_requests.phone_number",
      "portability_requests.full_name",
      "portability_requests.email",
      "portability_requests.current_carrier",
      "portability_requests.iccid",
      "portability_requests.scheduled_for",
      "portability_requests.rejection_reason",
      "orders.folio as order_folio",
      "esim_activations.iccid as esim_iccid",
      "shipped_sims.iccid as shipped_iccid",
    ]);
  if (fromInstant) query = query.where("portability_requests.created_at", ">=", fromInstant);
  if (toInstant) query = query.where("portability_requests.created_at", "<", toInstant);
  if (filter.status) query = query.where("portability_requests.status", "=", filter.status);
  const rows = await query
    .orderBy("portability_requests.created_at", "desc")
    .orderBy("portability_requests.folio", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    folio: row.folio,
    createdAt: row.created_at,
    status: row.status,
    phoneNumber: row.phone_number,
    fullName: row.full_name,
    email: row.email,
    currentCarrier: row.current_carrier,
    iccid: row.iccid ?? row.esim_iccid ?? row.shipped_iccid ?? null,
    scheduledFor: row.scheduled_for,
    rejectionReason: row.rejection_reason,
    updatedAt: row.updated_at,
    orderFolio: row.order_folio ?? null,
  }));
}

/** Which kind of record a folio names, by its series (PED, REC, POR); null for anything else. */
export function subjectOfFolio(folio: string): Subject | null {
  const series = /^([A-Z]+)-\d{4}-\d+$/.exec(folio)?.[1];
  if (series === "PED") return "order";
  if (series === "REC") return "topup";
  if (series === "POR") return "portability";
  return null;
}

export interface History {
  subject: Subject;
  id: string;
  folio: string;
  /** Where it stands now (an order whose SIM went out: "shipped"). */
  status: string;
  createdAt: string;
  changes: StatusChangeRow[];
}

export interface FoundRecord {
  subject: Subject;
  id: string;
  folio: string;
  status: string;
  createdAt: string;
}

/** The record a folio names, or null when there is none. */
export async function findByFolio(db: Db, folio: string): Promise<FoundRecord | null> {
  const normalised = normaliseFolio(folio);
  const subject = subjectOfFolio(normalised);
  if (subject === "order") {
    const row = await db
      .selectFrom("orders")
      .select(["id", "status", "shipped_at", "created_at"])
      .where("folio", "=", normalised)
      .executeTakeFirst();
    return row
      ? {
          subject,
          id: row.id,
          folio: normalised,
          status: row.shipped_at ? "shipped" : row.status,
          createdAt: row.created_at,
        }
      : null;
  }
  if (subject === "topup" || subject === "portability") {
    const row = await db
      .selectFrom(subject === "topup" ? "topups" : "portability_requests")
      .select(["id", "status", "created_at"])
      .where("folio", "=", normalised)
      .executeTakeFirst();
    return row
      ? { subject, id: row.id, folio: normalised, status: row.status, createdAt: row.created_at }
      : null;
  }
  return null;
}

/** The operator's changes to the record a folio names, oldest first; null for an unknown folio. */
export async function statusHistory(db: Db, folio: string): Promise<History | null> {
  const found = await findByFolio(db, folio);
  if (!found) return null;
  return { ...found, changes: await statusChangesOf(db, found.subject, found.id) };
}
