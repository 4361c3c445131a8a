import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPostgresDatabase, databaseEngine } from "../../tests/support/test-database";
import { tcpProxy, throughProxy } from "../../tests/support/tcp-proxy";
import { databaseDriver, isDatabaseUnavailable, openDatabase, type Db } from "./db.server";

let db: Db | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

// SQLite whichever project runs it: the statement cache is SQLite's.
describe("the embedded database", () => {
  it("prepares a statement once and runs it again with other parameters", async () => {
    db = await openDatabase({ dataDir: null });
    const driver = databaseDriver(db);
    if (driver.engine !== "sqlite") throw new Error("openDatabase without a URL opens SQLite");
    const prepare = vi.spyOn(driver.connection, "prepare");
    const read = (value: number) =>
      sql<{ doubled: number }>`select ${value} * 2 as doubled`.execute(db!);
    expect((await read(2)).rows).toEqual([{ doubled: 4 }]);
    expect((await read(21)).rows).toEqual([{ doubled: 42 }]);
    expect(prepare).toHaveBeenCalledTimes(1);
  });
});

describe.runIf(databaseEngine() === "postgres")("PostgreSQL going away", () => {
  it("fails the transaction in progress as unavailable, without ending the process, and reconnects", async () => {
    const url = new URL(await createPostgresDatabase());
    const proxy = tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.start();
    try {
      db = await openDatabase({ dataDir: null, databaseUrl: throughProxy(url.toString(), proxy) });
      // The connection is checked out of the pool, between two statements, when it is lost: pg
      // emits "error" on the client, which ends the process unless something listens.
      const failure = await db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await proxy.cut();
          await new Promise((resolve) => setTimeout(resolve, 50));
          await sql`select 2`.execute(trx);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isDatabaseUnavailable(failure)).toBe(true);
      await proxy.restore();
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await proxy.cut();
    }
  });
});
