import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue, type Catalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { findOrder, markOrderPaid, placeOrder, type Order } from "~/checkout/orders.server";
import { nowIso, openDatabase, type Db } from "~/db/db.server";
import type { PaymentInstructions } from "~/payments/provider";

/** Fixtures of the mail tests: a database with the catalogue, orders, requests, payments. */

const catalogues = new WeakMap<Db, Catalogue>();

export async function openTestDatabase(): Promise<Db> {
  const db = await openDatabase({ dataDir: null });
  const catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  catalogues.set(db, catalogue);
  return db;
}

export const CUSTOMER_EMAIL = "ana.lopez@example.com";

export async function placeTestOrder(
  db: Db,
  options: {
    simType?: "physical" | "esim";
    items?: Array<{ id: string; quantity: number }>;
    paid?: boolean;
  } = {},
): Promise<Order> {
  const catalogue = catalogues.get(db)!;
  const simType = options.simType ?? "physical";
  const { order } = await placeOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    customer: {
      full_name: "Ana López",
      email: CUSTOMER_EMAIL,
      phone_number: "5512345678",
      sim_type: simType,
      delivery:
        simType === "esim"
          ? null
          : {
              street: "Av. Insurgentes Sur",
              exterior_number: "1234",
              interior_number: undefined,
              neighborhood: "Del Valle",
              postal_code: "03100",
              municipality: "Benito Juárez",
              state: "CMX",
            },
    } as Parameters<typeof placeOrder>[1]["customer"],
    lines: priceCart(options.items ?? [{ id: "conecta-150", quantity: 1 }], catalogue.find).lines,
  });
  if (options.paid) await markOrderPaid(db, order.ref, nowIso());
  // Placing it queued its "received" e-mail: each test queues the e-mails it is about.
  await db.deleteFrom("mail_queue").execute();
  return (await findOrder(db, order.ref))!;
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

export interface TestSmtpServer {
  port: number;
  /** Raw messages received, in order. */
  raw: Buffer[];
  /** Answer 451 to every message while true. */
  refuse: boolean;
  parsed(): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (any port, or the one given), accepting without login. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    port: 0,
    raw: [],
    refuse: false,
    parsed: () => Promise.all(state.raw.map((raw) => simpleParser(raw, { skipImageLinks: true }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (state.refuse) {
          callback(
            Object.assign(new Error("Servicio no disponible, intenta más tarde"), {
              responseCode: 451,
            }),
          );
          return;
        }
        state.raw.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  return state;
}

/** A loopback port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = await startSmtpServer();
  await server.close();
  return server.port;
}
