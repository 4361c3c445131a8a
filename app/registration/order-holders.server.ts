import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { maskCurp } from "./curp";
import { checkoutHolderSchema, holderKey, type CheckoutHolder } from "./holder";
import type { IdEvidence } from "./id-validation";
import { ORDER_HOLDER_PROOF_ATTEMPTS, type OrderHolderProof } from "./holder-proof";
import type { RegistrationKeys } from "./registrations.server";

/**
 * The holder an order names at checkout (decision 0101), kept sealed until the order's lines are
 * registered, and the holder's proof that they hold their identification (decision 0139): after
 * paying, whoever sees the order sends the identification's number, a photo of it and a selfie
 * to the identity validation; only the outcome is kept here. The order's lines are registered
 * only once the holder is proved. Only app/registration writes `order_holders`.
 */

type Executor = Db | Transaction<Database>;

/**
 * Keeps the holder an order names, sealed as registrations seal a holder's key, in the order's
 * transaction: `lines` is how many SIMs the order buys (the row goes once each is registered or
 * refused).
 */
export async function keepOrderHolder(
  trx: Executor,
  keys: RegistrationKeys,
  input: { orderRef: string; holder: CheckoutHolder; lines: number; now: Date },
): Promise<void> {
  const holder = checkoutHolderSchema.parse(input.holder);
  const id = randomBytes(16).toString("base64url");
  await trx
    .insertInto("order_holders")
    .values({
      id,
      order_ref: input.orderRef,
      holder_kind: holder.holder_kind,
      holder_sealed: keys.seal(JSON.stringify(holder), id),
      holder_key_masked: maskCurp(holderKey(holder)),
      lines_left: input.lines,
      created_at: input.now.toISOString(),
      proved_at: null,
      proof_reference: null,
      proof_failed_at: null,
    })
    .execute();
}

/** Forgets an order's holder: the order was cancelled unpaid (its voucher or transfer expired). */
export async function forgetOrderHolder(trx: Executor, orderRef: string): Promise<void> {
  await trx.deleteFrom("order_holders").where("order_ref", "=", orderRef).execute();
}

/** Whether an order still keeps its holder (for tests and the operator; nothing of it). */
export async function orderKeepsHolder(db: Executor, orderRef: string): Promise<boolean> {
  const row = await db
    .selectFrom("order_holders")
    .select("id")
    .where("order_ref", "=", orderRef)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Seals again, with the newest secret, every holder still waiting for its order's lines: run it
 * with `rekeyRegistrations` after adding a new secret to SESSION_SECRET and before removing the
 * old one. A holder no listed secret opens is left (its lines will be suspended, "no-holder").
 * Returns how many rows it rewrote.
 */
export async function rekeyOrderHolders(db: Db, keys: RegistrationKeys): Promise<number> {
  const rows = await db.selectFrom("order_holders").select(["id", "holder_sealed"]).execute();
  let rewritten = 0;
  for (const row of rows) {
    const opened = keys.open(row.holder_sealed, row.id);
    if (opened === null) continue;
    await db
      .updateTable("order_holders")
      .set({ holder_sealed: keys.seal(opened, row.id) })
      .where("id", "=", row.id)
      .where("holder_sealed", "=", row.holder_sealed)
      .execute();
    rewritten += 1;
  }
  return rewritten;
}

function openSealed(
  keys: RegistrationKeys,
  row: { id: string; holder_sealed: string },
): CheckoutHolder | null {
  const opened = keys.open(row.holder_sealed, row.id);
  if (opened === null) return null;
  try {
    const parsed = checkoutHolderSchema.safeParse(JSON.parse(opened));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function proofOf(row: {
  proved_at: string | null;
  proof_failures: number | string;
}): OrderHolderProof {
  if (row.proved_at) return { state: "proved", provedAt: row.proved_at };
  const failures = Number(row.proof_failures);
  if (failures >= ORDER_HOLDER_PROOF_ATTEMPTS) return { state: "ended" };
  return { state: "to-prove", attemptsLeft: ORDER_HOLDER_PROOF_ATTEMPTS - failures };
}

/** The order's holder, opened, with where its proof stands; null when it keeps none readable. */
export async function openOrderHolder(
  db: Executor,
  keys: RegistrationKeys,
  orderRef: string,
): Promise<{ holder: CheckoutHolder; keyMasked: string; proof: OrderHolderProof } | null> {
  const row = await db
    .selectFrom("order_holders")
    .select(["id", "holder_sealed", "holder_key_masked", "proved_at", "proof_failures"])
    .where("order_ref", "=", orderRef)
    .executeTakeFirst();
  if (!row) return null;
  const holder = openSealed(keys, row);
  return holder ? { holder, keyMasked: row.holder_key_masked, proof: proofOf(row) } : null;
}

/**
 * Where the proof of the holder whose lines `orderRef` brings stands, without opening the
 * holder; null when the order keeps none (placed before the checkout asked, or all its lines
 * settled).
 */
export async function orderHolderProof(
  db: Executor,
  orderRef: string,
): Promise<OrderHolderProof | null> {
  const row = await db
    .selectFrom("order_holders")
    .select(["proved_at", "proof_failures"])
    .where("order_ref", "=", orderRef)
    .executeTakeFirst();
  return row ? proofOf(row) : null;
}

/** The order a number kept at checkout came with (decision 0106), if it came with one. */
export async function orderOfPortIn(db: Executor, requestId: string): Promise<string | null> {
  const row = await db
    .selectFrom("order_port_ins")
    .select("order_ref")
    .where("id", "=", requestId)
    .executeTakeFirst();
  return row?.order_ref ?? null;
}

/** The lines of an order waiting for its holder's proof: due at once (the worker looks every few seconds). */
async function wakeWaitingLines(trx: Executor, orderRef: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await trx
    .updateTable("pending_registrations")
    .set({ next_attempt_at: at, updated_at: at })
    .where("state", "=", "pending")
    .where((eb) =>
      eb.or([
        eb.and([eb("source", "=", "order"), eb("source_ref", "=", orderRef)]),
        eb.and([
          eb("source", "=", "portability"),
          eb(
            "source_ref",
            "in",
            eb.selectFrom("order_port_ins").select("id").where("order_ref", "=", orderRef),
          ),
        ]),
      ]),
    )
    .execute();
}

/**
 * The identity validation found the holder holds the identification: recorded once (a second
 * proof of a proved holder changes nothing), the holder sealed again with the identification
 * shown (what the registration records), and the order's waiting lines made due.
 */
export async function recordHolderProved(
  db: Db,
  keys: RegistrationKeys,
  input: {
    orderRef: string;
    document: IdEvidence["document"];
    reference: string | null;
    now: Date;
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("order_holders")
      .select(["id", "holder_sealed", "proved_at"])
      .where("order_ref", "=", input.orderRef)
      .executeTakeFirst();
    if (!row || row.proved_at) return false;
    const holder = openSealed(keys, row);
    if (!holder) return false;
    const shown: CheckoutHolder =
      holder.holder_kind === "fisica" && input.document !== "pasaporte-extranjero"
        ? { ...holder, identification_type: input.document }
        : holder;
    const updated = await trx
      .updateTable("order_holders")
      .set({
        proved_at: input.now.toISOString(),
        proof_reference: input.reference,
        holder_sealed: keys.seal(JSON.stringify(shown), row.id),
      })
      .where("id", "=", row.id)
      .where("proved_at", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await wakeWaitingLines(trx, input.orderRef, input.now);
    return true;
  });
}

/**
 * The validation refused the proof: one attempt used. The last one ends the online path, and
 * the order's waiting lines are made due so that they are left without registration now rather
 * than when the wait runs out. Answers the attempts left.
 */
export async function recordHolderProofRefused(
  db: Db,
  input: { orderRef: string; now: Date },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable("order_holders")
      .set((eb) => ({
        proof_failures: eb("proof_failures", "+", 1),
        proof_failed_at: input.now.toISOString(),
      }))
      .where("order_ref", "=", input.orderRef)
      .where("proved_at", "is", null)
      .where("proof_failures", "<", ORDER_HOLDER_PROOF_ATTEMPTS)
      .execute();
    const proof = await orderHolderProof(trx, input.orderRef);
    if (proof?.state === "ended") await wakeWaitingLines(trx, input.orderRef, input.now);
    return proof?.state === "to-prove" ? proof.attemptsLeft : 0;
  });
}
