import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// CFDI invoices of paid orders and top-ups, one per payment, and the fiscal data an account
// saved for its next invoice (issue 29, decisions 0116–0118).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("invoices")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** "order:<order ref>" or "topup:<top-up id>": one invoice per payment, whoever asks. */
    .addColumn("payment_key", "text", (column) => column.notNull().unique())
    /** "order" or "topup", and that purchase's id and folio. */
    .addColumn("purpose", "text", (column) => column.notNull())
    .addColumn("reference", "text", (column) => column.notNull())
    .addColumn("purchase_folio", "text", (column) => column.notNull())
    /** FAC-YYYY-NNNNNN: the CFDI's Serie and Folio. */
    .addColumn("folio", "text", (column) => column.notNull().unique())
    /** The account that asked for it, when signed in. */
    .addColumn("account_sub", "text")
    /** stamping (claimed, the PAC being asked), waiting (not issued yet), issued, cancelled. */
    .addColumn("state", "text", (column) => column.notNull())
    /** Which request to the PAC this is: a new one only after the PAC refused the last. */
    .addColumn("attempt", "integer", (column) => column.notNull())
    .addColumn("attempt_refused", "integer", (column) => column.notNull())
    .addColumn("claim_token", "text")
    .addColumn("claimed_at", "text")
    /** The receiver and what the last attempt asked for. */
    .addColumn("receiver_rfc", "text")
    .addColumn("receiver_name", "text")
    .addColumn("receiver_regimen", "text")
    .addColumn("receiver_postal_code", "text")
    .addColumn("uso", "text")
    .addColumn("email", "text")
    .addColumn("forma_pago", "text")
    /** The PAC's refusal of the last attempt (its code), never its text. */
    .addColumn("last_refusal", "text")
    .addColumn("provider", "text")
    .addColumn("provider_invoice_id", "text")
    .addColumn("uuid", "text", (column) => column.unique())
    .addColumn("subtotal", "text")
    .addColumn("total_tax", "text")
    .addColumn("total", "text")
    /** JSON: the CFDI as built (app/invoicing/cfdi.ts), which the PDF prints. */
    .addColumn("cfdi", "text")
    /** JSON: the seal's parts the printed representation shows (and whether it is the sandbox's). */
    .addColumn("stamp", "text")
    /** The stamped XML as the PAC (or the sandbox) gave it. */
    .addColumn("xml", "text")
    .addColumn("issued_at", "text")
    /** pending (the SAT waits for the receiver) or accepted; null: never asked to cancel. */
    .addColumn("cancellation_status", "text")
    .addColumn("cancel_motive", "text")
    .addColumn("substitute_uuid", "text")
    .addColumn("cancelled_at", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("invoices_by_issue")
    .on("invoices")
    .columns(["state", "issued_at"])
    .execute();

  await db.schema
    .createTable("invoice_profiles")
    .addColumn("account_sub", "text", (column) => column.primaryKey())
    .addColumn("rfc", "text", (column) => column.notNull())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("regimen", "text", (column) => column.notNull())
    .addColumn("postal_code", "text", (column) => column.notNull())
    .addColumn("uso", "text", (column) => column.notNull())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("invoice_profiles").execute();
  await db.schema.dropTable("invoices").execute();
}
