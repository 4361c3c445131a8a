import { randomBytes } from "node:crypto";
import type { Order } from "~/checkout/orders.server";
import { nowIso, type Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "./test-database";
import type { PaymentInstructions } from "~/payments/provider";
import { makeOrder, seedCatalogue } from "./store-fixtures";

/** Fixtures of the mail tests: a database with the catalogue, orders, requests, payments. */

export async function openTestDatabase(): Promise<Db> {
  const db = await openDatabaseUnderTest();
  await seedCatalogue(db);
  return db;
}

export const CUSTOMER_EMAIL = "ana.lopez@example.com";

/** One Conecta 150 for CUSTOMER_EMAIL, unpaid unless `paid`; no e-mail left queued. */
export function placeTestOrder(
  db: Db,
  options: {
    simType?: "physical" | "esim";
    items?: Array<{ id: string; quantity: number }>;
    paid?: boolean;
  } = {},
): Promise<Order> {
  return makeOrder(db, {
    email: CUSTOMER_EMAIL,
    items: [{ id: "conecta-150", quantity: 1 }],
    ...options,
    paid: options.paid ?? false,
  });
}

/** A voucher or transfer issued for an order or a top-up, as the payment service stores it. */
export async function insertVoucherPayment(
  db: Db,
  options: {
    purpose: "order" | "topup";
    reference: string;
    amount: number;
    instructions: PaymentInstructions;
    status?: "pending" | "approved" | "expired";
  },
): Promise<string> {
  const id = `pay_${randomBytes(8).toString("hex")}`;
  const now = nowIso();
  const { instructions } = options;
  await db
    .insertInto("payments")
    .values({
      id,
      purpose: options.purpose,
      reference: options.reference,
      amount: options.amount,
      currency: "MXN",
      status: options.status ?? "pending",
      provider: "sandbox",
      provider_reference: `chk_${id}`,
      checkout_url: null,
      decline_reason: null,
      card_brand: null,
      card_last4: null,
      created_at: now,
      updated_at: now,
      settled_at: null,
      method: instructions.method,
      instructions: JSON.stringify(instructions),
      instruction_reference: `${instructions.method}:${instructions.reference}:${id}`,
      expires_at: instructions.expiresAt,
    })
    .execute();
  return id;
}

export async function insertPortabilityRequest(
  db: Db,
  values: {
    status?: "received" | "in_progress" | "completed" | "rejected";
    scheduledFor?: string | null;
    rejectionReason?: string | null;
  } = {},
): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  const now = nowIso();
  await db
    .insertInto("portability_requests")
    .values({
      id,
      folio: `POR-2026-${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`,
      idempotency_key: randomBytes(8).toString("hex"),
      // A number has at most one open request (a unique index): one number per request here.
      phone_number: `81${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
      nip_sealed: "sealed",
      full_name: "Luis Pérez",
      email: "luis@example.com",
      curp: "PELL900101HNLRSS09",
      current_carrier: "telcel",
      iccid: null,
      status: values.status ?? "received",
      terms_accepted_at: now,
      created_at: now,
      updated_at: now,
      scheduled_for: values.scheduledFor ?? null,
      rejection_reason: values.rejectionReason ?? null,
    })
    .execute();
  return id;
}

/** Every line a logger was given, to check what they hold. */
export function collectingLogger() {
  const lines: Array<{ level: string; line: Record<string, unknown> }> = [];
  const at = (level: string) => (line: Record<string, unknown>) => {
    lines.push({ level, line });
  };
  return {
    logger: { info: at("info"), warn: at("warn"), error: at("error") } as never,
    lines,
    text: () => JSON.stringify(lines),
  };
}
