// The rows the reconciliation compares, read after the server has stopped: SQLite's file opened
// read-only, or on PostgreSQL (DATABASE_URL) a read-only transaction, so the soak can never change
// what it checks.
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createThrowawayDatabase } from "../throwaway-database.mjs";

/** The columns scripts/soak/reconcile.ts's StoredRows names, straight from app/db/schema.ts. */
const QUERIES = {
  orders: "SELECT id, folio, idempotency_key, status, total FROM orders",
  orderLines: "SELECT order_id, position, unit_price, quantity, line_total FROM order_lines",
  topups: "SELECT id, folio, idempotency_key, status, amount, phone_number FROM topups",
  payments: `SELECT id, purpose, reference, amount, status, method, instructions,
                    instruction_reference, expires_at
               FROM payments`,
  sandboxCheckouts: `SELECT id, merchant_reference, amount, status, method, reference, clabe
                       FROM sandbox_checkouts`,
  portabilityRequests:
    "SELECT id, folio, idempotency_key, phone_number, status FROM portability_requests",
};

/** The line's rows (scripts/soak/reconcile-lines.ts's LineRows). */
const LINE_QUERIES = {
  lines: "SELECT number, account_sub, source FROM lines",
  lineJobs: "SELECT id, kind, state, result FROM line_jobs",
  bssSimLines: "SELECT number, status, data_total_mb, data_used_mb FROM bss_sim_lines",
  bssSimPackages: `SELECT number, position, applied_by, offer_id, starts_at, ends_at,
                          minutes_allowance, sms_allowance, minutes_used, sms_used
                     FROM bss_sim_packages`,
  bssSimTopups: "SELECT topup_id, number, amount, offer_id FROM bss_sim_topups",
  bssSimUsage: "SELECT number, day, data_mb, minutes, sms FROM bss_sim_usage",
  bssSimActivations: "SELECT external_id, number, offer_id FROM bss_sim_activations",
};

/** The registration's rows (scripts/soak/reconcile-registrations.ts's RegistrationRows). */
const REGISTRATION_QUERIES = {
  registrations: `SELECT id, folio, number, holder_kind, holder_name, holder_key_hash,
                         holder_key_masked, channel, registered_at, replaced_at, replaced_by
                    FROM registrations`,
  registrationAttempts: "SELECT number, outcome, channel, attempted_at FROM registration_attempts",
};

/** The automatic top-ups' rows (scripts/soak/reconcile-auto-topups.ts's AutoTopupRows). */
const AUTO_TOPUP_QUERIES = {
  autoTopups: "SELECT id, account_sub, number, monthly_max, state FROM auto_topups",
  charges: `SELECT id, auto_topup_id, number, period, state, topup_id, settled_at
              FROM auto_topup_charges`,
  providerCharges: `SELECT id, merchant_reference, status, idempotency_key
                      FROM sandbox_checkouts WHERE idempotency_key IS NOT NULL`,
};

/** The invoices' rows (scripts/soak/reconcile-invoices.ts's InvoiceRows). */
const INVOICE_QUERIES = {
  invoices: `SELECT id, payment_key, purpose, reference, folio, state, uuid, total, xml IS NOT NULL AS has_xml
               FROM invoices`,
  invoiceMails: "SELECT data FROM mail_queue WHERE template = 'invoice_issued'",
  approvedPayments: "SELECT purpose, reference, amount FROM payments WHERE status = 'approved'",
};

/** Runs every query of QUERIES and the capabilities' own with `all(sql)`: StoredRows. */
async function readAll(all) {
  const rows = {};
  for (const [name, sql] of Object.entries(QUERIES)) rows[name] = await all(sql);
  rows.line = {};
  for (const [name, sql] of Object.entries(LINE_QUERIES)) rows.line[name] = await all(sql);
  rows.registration = {};
  for (const [name, sql] of Object.entries(REGISTRATION_QUERIES)) {
    rows.registration[name] = await all(sql);
  }
  rows.autoTopup = {};
  for (const [name, sql] of Object.entries(AUTO_TOPUP_QUERIES)) {
    rows.autoTopup[name] = await all(sql);
  }
  rows.invoicing = {};
  for (const [name, sql] of Object.entries(INVOICE_QUERIES)) rows.invoicing[name] = await all(sql);
  return rows;
}

/** The stored rows: from `databaseUrl` (PostgreSQL) when given, else SQLite under `dataDir`. */
export async function readStoredRows({ dataDir, databaseUrl }) {
  return databaseUrl ? readPostgresRows(databaseUrl) : readSqliteRows(dataDir);
}

async function readSqliteRows(dataDir) {
  const database = new Database(path.join(dataDir, "storefront.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return await readAll((sql) => database.prepare(sql).all());
  } finally {
    database.close();
  }
}

async function readPostgresRows(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN READ ONLY");
    const rows = await readAll(async (sql) => (await client.query(sql)).rows);
    await client.query("ROLLBACK");
    return rows;
  } finally {
    await client.end();
  }
}

/** A new empty database for this soak run on the server of `serverUrl`, dropped after a pass. */
export const createSoakDatabase = (serverUrl) =>
  createThrowawayDatabase(serverUrl, "storefront_soak");
