// The rows the reconciliation compares, read after the server has stopped: the file opened
// read-only, so the soak can never change what it checks.
import path from "node:path";
import Database from "better-sqlite3";

/** The columns app/reliability/reconcile.ts's StoredRows names, straight from app/db/schema.ts. */
export function readStoredRows(dataDir) {
  const database = new Database(path.join(dataDir, "storefront.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const all = (sql) => database.prepare(sql).all();
    return {
      orders: all("SELECT id, folio, idempotency_key, status, total FROM orders"),
      orderLines: all(
        "SELECT order_id, position, unit_price, quantity, line_total FROM order_lines",
      ),
      topups: all("SELECT id, folio, idempotency_key, status, amount, phone_number FROM topups"),
      payments: all(
        `SELECT id, purpose, reference, amount, status, method, instructions,
                instruction_reference, expires_at
           FROM payments`,
      ),
      sandboxCheckouts: all(
        `SELECT id, merchant_reference, amount, status, method, reference, clabe
           FROM sandbox_checkouts`,
      ),
      portabilityRequests: all(
        "SELECT id, folio, idempotency_key, phone_number, status FROM portability_requests",
      ),
    };
  } finally {
    database.close();
  }
}
