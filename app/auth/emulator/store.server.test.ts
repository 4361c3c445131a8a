import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import StormDB from "stormdb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSerialDataStoreFactory, JsonFileEngine, type StormDatabase } from "./store.server";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "emulator-store-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

type Pool = StormDatabase & {
  get(key: string): Pool;
  set(key: string, value: unknown): Pool;
  value(): unknown;
};

describe("the identity emulator's pool files", () => {
  it("opens a pool once for requests that arrive together, as the first start's requests do", async () => {
    writeFileSync(path.join(directory, "pool.json"), JSON.stringify({ Users: { ana: { n: 1 } } }));
    let opened = 0;
    const factory = createSerialDataStoreFactory({
      directory,
      StormDB: StormDB as never,
      wrap: (database) => ({ database, number: ++opened }),
    });
    const stores = await Promise.all(
      Array.from({ length: 20 }, () => factory.create(null, "pool", { Users: {} })),
    );
    expect(opened).toBe(1);
    expect(new Set(stores).size).toBe(1);
    expect((stores[0].database as Pool).get("Users").value()).toEqual({ ana: { n: 1 } });
  });

  it("writes in order, each write whole: the file always reads, and ends with the last state", async () => {
    const file = path.join(directory, "pool.json");
    const engine = new JsonFileEngine(file);
    const database = new (StormDB as unknown as new (engine: JsonFileEngine) => Pool)(engine);
    database.default({ Users: {} });
    const writes: Array<Promise<void> | null> = [];
    for (let user = 0; user < 200; user++) {
      // Alternating long and short states: overlapping plain writes would leave a long tail.
      database.set("Users", user % 2 ? { [`u${user}`]: "x".repeat(5_000) } : { [`u${user}`]: 1 });
      writes.push(database.save());
      expect(() => JSON.parse(readFileSync(file, "utf8"))).not.toThrow();
    }
    await Promise.all(writes);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ Users: { u199: "x".repeat(5_000) } });
    expect(readdirSync(directory)).toEqual(["pool.json"]);
  });

  it("keeps dates as dates across a restart", async () => {
    const file = path.join(directory, "pool.json");
    const created = new Date("2026-11-23T10:00:00.000Z");
    await new JsonFileEngine(file).write({ Users: { ana: { UserCreateDate: created } } });
    expect(new JsonFileEngine(file).init()).toEqual({
      Users: { ana: { UserCreateDate: created } },
    });
  });

  it("names the file it cannot read, and lets the next request try again", async () => {
    writeFileSync(path.join(directory, "pool.json"), "} }\n} }\n}");
    const factory = createSerialDataStoreFactory({
      directory,
      StormDB: StormDB as never,
      wrap: (database) => database,
    });
    await expect(factory.create(null, "pool", {})).rejects.toThrow(/pool\.json/);
    writeFileSync(path.join(directory, "pool.json"), "{}");
    await expect(factory.create(null, "pool", {})).resolves.toBeTruthy();
  });
});
