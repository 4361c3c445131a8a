import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseDriver, openDatabase, type Db } from "./db.server";

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
