// `npm run ops -- respaldo` / `restaurar` at the module level, on SQLite and again on PostgreSQL
// (pg_dump and pg_restore, the client of the test server): a backup of a database the app's own
// code filled holds every row, restores into an empty one and only there, and says what it holds.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "~/checkout/order-payments.server";
import { DATABASE_FILE_NAME, openDatabase, type Db } from "~/db/db.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { createPaymentService } from "~/payments/payments.server";
import { createSandboxGateway } from "~/payments/sandbox/sandbox.server";
import { deriveNotificationKey } from "~/payments/sandbox/signature.server";
import {
  makeOrder,
  makePortabilityRequest,
  makeTopup,
  seedCatalogue,
} from "../../tests/support/store-fixtures";
import { createPostgresDatabase, databaseEngine } from "../../tests/support/test-database";
import { restoreBackup, takeBackup, type DatabaseLocation } from "./backup.server";
import { backupText, restoreText } from "./format";

const engine = databaseEngine();
const scratch = mkdtempSync(path.join(os.tmpdir(), "storefront-backup-test-"));
let source: DatabaseLocation;
let db: Db;

/** A fresh place for a restore: a new DATA_DIR, and on PostgreSQL a new empty database. */
async function emptyLocation(name: string): Promise<DatabaseLocation> {
  return {
    dataDir: path.join(scratch, name),
    databaseUrl: engine === "postgres" ? await createPostgresDatabase() : null,
  };
}

/** Every row of the tables a restore must bring back, as the app's database holds them. */
async function rowsOf(location: DatabaseLocation) {
  const opened = await openDatabase({
    dataDir: location.dataDir,
    databaseUrl: location.databaseUrl,
  });
  try {
    return {
      orders: await opened
        .selectFrom("orders")
        .select(["id", "folio", "status"])
        .orderBy("id")
        .execute(),
      payments: await opened
        .selectFrom("payments")
        .select(["id", "status"])
        .orderBy("id")
        .execute(),
      topups: await opened
        .selectFrom("topups")
        .select(["id", "folio", "status"])
        .orderBy("id")
        .execute(),
      mail: await opened
        .selectFrom("mail_queue")
        .select(["id", "template"])
        .orderBy("id")
        .execute(),
    };
  } finally {
    await opened.destroy();
  }
}

beforeAll(async () => {
  source = {
    dataDir: path.join(scratch, "server"),
    databaseUrl: engine === "postgres" ? await createPostgresDatabase() : null,
  };
  db = await openDatabase({ dataDir: source.dataDir, databaseUrl: source.databaseUrl });
  await seedCatalogue(db);
  await makeOrder(db);
  await makeOrder(db, { simType: "esim" });
  // An order waiting for its cash voucher: a pending payment, its sandbox checkout and its e-mail.
  const unpaid = await makeOrder(db, { paid: false });
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const provider = createSandboxGateway({
    db,
    notificationKeys: [deriveNotificationKey("backup-test-secret-that-is-long-enough-0123")],
    logger: quiet,
    fetch: (async () => new Response(null, { status: 200 })) as unknown as typeof fetch,
  });
  const payments = createPaymentService({ db, provider, logger: quiet, voucherHours: 72 });
  payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
  await payments.begin({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: unpaid.ref,
    amount: unpaid.total,
    method: "cash",
    description: `Pedido ${unpaid.folio}`,
    returnUrl: `http://tienda.test/confirmation?pedido=${unpaid.ref}`,
    origin: "http://tienda.test",
    customerEmail: "ana@example.com",
  });
  const topup = await makeTopup(db);
  await makeTopup(db, { paid: false });
  await makePortabilityRequest(db);
  // The fixtures drop the e-mails they queue: one of the top-up's, as its payment would queue it.
  await enqueueMail(db, {
    dedupeKey: `topup-receipt:${topup.id}`,
    to: "carlos@example.com",
    template: "topup_receipt",
    data: { topupId: topup.id },
  });
  // A session secret and captured mail beside the database: the operator is told to keep them.
  mkdirSync(source.dataDir, { recursive: true });
  writeFileSync(path.join(source.dataDir, "session-secret"), "x".repeat(43));
}, 30_000);

afterAll(async () => {
  await db?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

describe(`respaldo and restaurar on ${engine}`, { timeout: 30_000 }, () => {
  let backupFile: string;

  it("writes a new file holding every table's rows and the schema, while the database stays open", async () => {
    backupFile = path.join(scratch, "respaldo.bak");
    const outcome = await takeBackup(source, backupFile);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.contents.engine).toBe(engine);
    expect(outcome.contents.rowsByTable).toMatchObject({
      orders: 3,
      topups: 2,
      portability_requests: 1,
    });
    expect(outcome.contents.rowsByTable.payments).toBeGreaterThan(0);
    expect(outcome.contents.migrations.at(-1)).toMatch(/^\d{4}-/);
    expect(outcome.outsideBackup).toEqual(["session-secret"]);
    const text = backupText(outcome);
    expect(text).toContain(`Respaldo escrito en ${backupFile}`);
    expect(text).toContain("3 pedidos");
    expect(text).toContain("2 recargas");
    expect(text).toContain("No van en este archivo (cópialos aparte de DATA_DIR): session-secret.");
    expect(text).toContain("Guarda también SESSION_SECRET");
    // Never the database URL, which carries the password.
    expect(text).not.toMatch(/postgres(ql)?:\/\//);
  });

  it("never overwrites a file, and leaves no partial file behind", async () => {
    const before = readFileSync(backupFile);
    const again = await takeBackup(source, backupFile);
    expect(again).toEqual({
      ok: false,
      message: `Ya existe ${backupFile}: respaldo no sobrescribe un archivo; elige otro nombre.`,
    });
    expect(readFileSync(backupFile).equals(before)).toBe(true);
    const missingFolder = await takeBackup(source, path.join(scratch, "no-such-folder", "r.bak"));
    expect(missingFolder).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^No existe la carpeta /),
    });
    expect(readdirSync(scratch).filter((name) => name.endsWith(".parcial"))).toEqual([]);
  });

  it("restores into an empty place every order, payment, top-up and mail row, as they were", async () => {
    const target = await emptyLocation("restored");
    const outcome = await restoreBackup(target, backupFile);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.contents.rowsByTable).toMatchObject({
      orders: 3,
      topups: 2,
      portability_requests: 1,
    });
    expect(restoreText(outcome)).toMatch(/^Restaurado en .* desde .*: 3 pedidos, /);
    const [original, restored] = [await rowsOf(source), await rowsOf(target)];
    expect(restored).toEqual(original);
    expect(restored.orders.filter((order) => order.status === "paid")).toHaveLength(2);
    expect(restored.mail.length).toBeGreaterThan(0);
  });

  it("refuses a place that already holds a database, and changes nothing there", async () => {
    const outcome = await restoreBackup(source, backupFile);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.message).toMatch(
      engine === "sqlite"
        ? /^Ya hay una base de datos en .*storefront\.sqlite: restaurar no la sobrescribe/
        : /^La base de datos \S+ ya tiene \d+ tablas: restaurar no la sobrescribe/,
    );
    expect(outcome.message).not.toContain("\n");
    expect((await rowsOf(source)).orders).toHaveLength(3);
  });

  it("refuses what is not one of its backups, and a backup of the other engine", async () => {
    const notABackup = path.join(scratch, "notas.txt");
    writeFileSync(notABackup, "hola");
    expect(await restoreBackup(await emptyLocation("not-a-backup"), notABackup)).toEqual({
      ok: false,
      message: `${notABackup} no es un respaldo de la tienda (ni una base SQLite ni un archivo de pg_dump -Fc).`,
    });
    const otherEngine = path.join(scratch, engine === "sqlite" ? "other.dump" : "other.sqlite");
    writeFileSync(
      otherEngine,
      engine === "sqlite" ? "PGDMP\u0001\u000e\u0000" : "SQLite format 3\u0000",
    );
    const refused = await restoreBackup(await emptyLocation("other-engine"), otherEngine);
    expect(refused).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        engine === "sqlite" ? /es un respaldo de PostgreSQL/ : /es un respaldo de SQLite/,
      ),
    });
  });

  it.runIf(engine === "sqlite")(
    "refuses a backup made by a newer version of the store",
    async () => {
      const newer = path.join(scratch, "newer.sqlite");
      writeFileSync(newer, readFileSync(backupFile));
      const connection = new SQLite(newer);
      connection
        .prepare("insert into kysely_migration (name, timestamp) values (?, ?)")
        .run("9999-future", "2030-01-01");
      connection.close();
      const target = await emptyLocation("newer");
      expect(await restoreBackup(target, newer)).toEqual({
        ok: false,
        message:
          "El respaldo es de una versión más nueva de la tienda (migraciones que esta no conoce: 9999-future): restáuralo con esa versión.",
      });
      expect(existsSync(path.join(target.dataDir, DATABASE_FILE_NAME))).toBe(false);
    },
  );
});
