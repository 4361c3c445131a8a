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

/** The stored rows: from `databaseUrl` (PostgreSQL) when given, else SQLite under `dataDir`. */
export async function readStoredRows({ dataDir, databaseUrl }) {
  return databaseUrl ? readPostgresRows(databaseUrl) : readSqliteRows(dataDir);
}

function readSqliteRows(dataDir) {
  const database = new Database(path.join(dataDir, "storefront.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return Object.fromEntries(
      Object.entries(QUERIES).map(([name, sql]) => [name, database.prepare(sql).all()]),
    );
  } finally {
    database.close();
  }
}

async function readPostgresRows(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN READ ONLY");
    const rows = {};
    for (const [name, sql] of Object.entries(QUERIES)) rows[name] = (await client.query(sql)).rows;
    await client.query("ROLLBACK");
    return rows;
  } finally {
    await client.end();
  }
}

/** A new empty database for this soak run on the server of `serverUrl`, dropped after a pass. */
export const createSoakDatabase = (serverUrl) =>
  createThrowawayDatabase(serverUrl, "storefront_soak");
