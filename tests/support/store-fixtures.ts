import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import {
  findOrder,
  markOrderPaid,
  placeOrder,
  type Order,
  type PlaceOrderInput,
} from "~/checkout/orders.server";
import { databaseDriver, nowIso, type Db } from "~/db/db.server";
import { curpCheckDigit } from "~/registration/curp";
import { portabilitySchema } from "~/portability/portability-schema";
import {
  createNipBox,
  createPortabilityRequests,
  type PortabilityRequest,
} from "~/portability/requests.server";
import { createTopup, markTopupPaid, type Topup } from "~/topup/topups.server";

/**
 * Orders, top-ups and portability requests made by the app's own code, for the unit tests (ops,
 * mail) and the CLI test of `npm run ops`.
 */

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const key = () => randomBytes(12).toString("base64url");

export async function seedCatalogue(db: Db): Promise<void> {
  await createCatalogue(db).seed(PLAN_CATALOGUE);
}

export interface OrderFixture {
  simType?: "physical" | "esim";
  /** Two Conecta 150 unless told otherwise. */
  items?: Array<{ id: string; quantity: number }>;
  paid?: boolean;
  fullName?: string;
  email?: string;
  /** Backdates the order (ISO-8601 instant). */
  createdAt?: string;
  /** Who will hold its lines, as the checkout keeps it (none: an order from before it asked). */
  holder?: PlaceOrderInput["holder"];
}

/**
 * An order placed by the app's own code (the catalogue must be seeded), paid unless
 * `paid: false`, as it reads afterwards. Its e-mails are dropped from the queue.
 */
export async function makeOrder(db: Db, fixture: OrderFixture = {}): Promise<Order> {
  const catalogue = createCatalogue(db);
  await catalogue.reload();
  const simType = fixture.simType ?? "physical";
  const { order } = await placeOrder(db, {
    idempotencyKey: key(),
    holder: fixture.holder,
    lines: priceCart(fixture.items ?? [{ id: "conecta-150", quantity: 2 }], catalogue.find).lines,
    customer: {
      full_name: fixture.fullName ?? "Ana López",
      email: fixture.email ?? "ana@example.com",
      phone_number: "5512345678",
      sim_type: simType,
      delivery:
        simType === "esim"
          ? null
          : {
              street: "Av. Insurgentes Sur",
              exterior_number: "1234",
              interior_number: "5",
              neighborhood: "Del Valle",
              postal_code: "03100",
              municipality: "Benito Juárez",
              state: "CMX",
            },
    },
  });
  if (fixture.paid ?? true) await markOrderPaid(db, order.ref, nowIso());
  // The e-mails of placing it are not the operator's: each test sees only what its change queued.
  await db.deleteFrom("mail_queue").execute();
  if (fixture.createdAt) {
    await db
      .updateTable("orders")
      .set({ created_at: fixture.createdAt })
      .where("id", "=", order.ref)
      .execute();
  }
  return (await findOrder(db, order.ref))!;
}

let phoneCounter = 0;

/** A received portability request for a fresh number (made signed in when given a `customerSub`). */
export async function makePortabilityRequest(
  db: Db,
  fixture: { createdAt?: string; email?: string; iccid?: string; customerSub?: string } = {},
): Promise<PortabilityRequest> {
  phoneCounter += 1;
  const requests = createPortabilityRequests({ db, nipBox: createNipBox([SECRET]) });
  const curp = "GOMA850312MDFRRN0";
  const outcome = await requests.submit(
    portabilitySchema.parse({
      phone_number: `55${String(10_000_000 + phoneCounter).slice(-8)}`,
      nip: "4821",
      full_name: "Beatriz Gómez Martínez",
      email: fixture.email ?? "beatriz@example.mx",
      curp: curp + curpCheckDigit(curp),
      current_carrier: "telcel",
      accept_terms: "on",
      idempotency_key: `${key()}.${randomBytes(16).toString("base64url").slice(0, 22)}`,
      ...(fixture.iccid ? { iccid: fixture.iccid } : {}),
    }),
    { customerSub: fixture.customerSub ?? null },
  );
  if (outcome.kind !== "accepted") throw new Error(`portability fixture: ${outcome.kind}`);
  await db.deleteFrom("mail_queue").execute();
  if (fixture.createdAt) {
    await db
      .updateTable("portability_requests")
      .set({ created_at: fixture.createdAt })
      .where("id", "=", outcome.request.id)
      .execute();
  }
  return outcome.request;
}

/** A top-up of $100 to 5587654321, paid unless `paid: false`. */
export async function makeTopup(
  db: Db,
  fixture: { paid?: boolean; createdAt?: string } = {},
): Promise<Topup> {
  const result = await createTopup(db, {
    customerSub: null,
    email: "carlos@example.com",
    idempotencyKey: key(),
    phoneNumber: "5587654321",
    amount: 100,
  });
  if (result.kind === "conflict") throw new Error("top-up fixture: conflict");
  if (fixture.paid ?? true) await markTopupPaid(db, result.topup.id, nowIso());
  if (fixture.createdAt) {
    await db
      .updateTable("topups")
      .set({ created_at: fixture.createdAt })
      .where("id", "=", result.topup.id)
      .execute();
  }
  return result.topup;
}

/**
 * The order rows were written in: SQLite's rowid; on PostgreSQL, their time, then their place in
 * the table (ctid, in insertion order for rows written in the same millisecond and not updated).
 */
function insertionOrder(db: Db) {
  return databaseDriver(db).engine === "sqlite" ? [sql`rowid`] : [sql`created_at`, sql`ctid`];
}

/** The queued e-mails in the order they were written, with their data parsed. */
export async function queuedMail(db: Db) {
  let query = db.selectFrom("mail_queue").selectAll();
  for (const column of insertionOrder(db)) query = query.orderBy(column);
  const rows = await query.execute();
  return rows.map((row) => ({
    dedupeKey: row.dedupe_key,
    to: row.to_address,
    template: row.template,
    data: JSON.parse(row.data) as Record<string, unknown>,
  }));
}

/** The audit rows in the order they were written. */
export async function statusChanges(db: Db) {
  let query = db.selectFrom("status_changes").selectAll();
  for (const column of insertionOrder(db)) query = query.orderBy(column);
  return query.execute();
}
