import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The numbers a checkout asked to keep, one per SIM of the order, until the order is paid and
// each becomes a portability request (issue 34, decision 0106).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("order_port_ins")
    /** Random (128 bits): the portability request filed for it takes the same id. */
    .addColumn("id", "text", (column) => column.primaryKey())
    /** The order's unguessable reference. */
    .addColumn("order_ref", "text", (column) => column.notNull())
    /** The SIM of the order (0-based, in the order of its lines) that receives the number. */
    .addColumn("position", "integer", (column) => column.notNull())
    /** 10 digits, no country code. */
    .addColumn("phone_number", "text", (column) => column.notNull())
    /** An id of app/portability/carriers.ts. */
    .addColumn("current_carrier", "text", (column) => column.notNull())
    /** "waiting" (for the order's payment), "filed" (a request with this id), "refused". */
    .addColumn("state", "text", (column) => column.notNull())
    /** Why it was not filed ("open-request"); null otherwise. */
    .addColumn("reason", "text")
    /**
     * Only while waiting: the NIP sealed as a request's (bound to `id`), the holder's name and
     * CURP. Emptied when it is filed (the request keeps them) or refused.
     */
    .addColumn("nip_sealed", "text")
    .addColumn("full_name", "text")
    .addColumn("curp", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addUniqueConstraint("order_port_ins_one_per_sim", ["order_ref", "position"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("order_port_ins").execute();
}
