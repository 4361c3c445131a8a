// The rows the reconciliation compares, read after the server has stopped: the file opened
// read-only, so the soak can never change what it checks.
import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

/** The queries, the same on both engines; their columns are app/db/schema.ts's. */
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
/** Whole numbers PostgreSQL may hand back as strings (bigint, numeric). */
const NUMERIC_COLUMNS = new Set([
  "total",
  "position",
  "unit_price",
  "quantity",
  "line_total",
  "amount",
]);

/**
 * With DATABASE_URL, each soak runs on a database of its own on that server (created here,
 * dropped after a passing run), so that what it reconciles is only what it did.
 */
export async function createRunDatabase(serverUrl) {
  const name = `storefront_soak_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

async function readPostgresRows(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = {};
    for (const [name, query] of Object.entries(QUERIES)) {
      const result = await client.query(query);
      rows[name] = result.rows.map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([column, value]) => [
            column,
            NUMERIC_COLUMNS.has(column) && typeof value === "string" ? Number(value) : value,
          ]),
        ),
      );
    }
    return rows;
  } finally {
    await client.end();
  }
}

/** The columns app/reliability/reconcile.ts's StoredRows names, straight from app/db/schema.ts. */
export async function readStoredRows(dataDir, databaseUrl = null) {
  if (databaseUrl) return readPostgresRows(databaseUrl);
  const database = new Database(path.join(dataDir, "storefront.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return Object.fromEntries(
      Object.entries(QUERIES).map(([name, query]) => [name, database.prepare(query).all()]),
    );
  } finally {
    database.close();
  }
}
