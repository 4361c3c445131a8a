import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { accountOfLine, isLineOfAccount, linesOfAccount, linkLine } from "./lines.server";

let db: Db;
const now = new Date("2026-11-25T12:00:00.000Z");

beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

describe("the lines in an account", () => {
  it("puts a line in one account, lists it there and nowhere else", async () => {
    expect(
      await linkLine(db, { number: "5599000001", accountSub: "ana", source: "esim", now }),
    ).toEqual({ linked: true, accountSub: "ana" });
    await linkLine(db, {
      number: "5511112222",
      accountSub: "ana",
      source: "added",
      now: new Date(now.getTime() + 1000),
    });
    expect((await linesOfAccount(db, "ana")).map((line) => line.number)).toEqual([
      "5599000001",
      "5511112222",
    ]);
    expect(await linesOfAccount(db, "beto")).toEqual([]);
    expect(await isLineOfAccount(db, "beto", "5599000001")).toBe(false);
  });

  it("keeps a number in its account unless it was just proved, then moves it", async () => {
    await linkLine(db, { number: "5511112222", accountSub: "ana", source: "added", now });
    expect(
      await linkLine(db, { number: "5511112222", accountSub: "beto", source: "added", now }),
    ).toEqual({ linked: false, accountSub: "ana" });
    expect(await accountOfLine(db, "5511112222")).toBe("ana");
    expect(
      await linkLine(
        db,
        { number: "5511112222", accountSub: "beto", source: "added", now },
        { move: true },
      ),
    ).toEqual({ linked: true, accountSub: "beto" });
    expect(await linesOfAccount(db, "ana")).toEqual([]);
    expect(await isLineOfAccount(db, "beto", "5511112222")).toBe(true);
  });

  it("links the same line to the same account once, however often asked", async () => {
    await linkLine(db, { number: "5599000001", accountSub: "ana", source: "esim", now });
    expect(
      await linkLine(db, { number: "5599000001", accountSub: "ana", source: "esim", now }),
    ).toEqual({ linked: true, accountSub: "ana" });
    expect(await linesOfAccount(db, "ana")).toHaveLength(1);
  });

  it("refuses a number that is not ten digits", async () => {
    await expect(
      linkLine(db, { number: "55 1111 2222", accountSub: "ana", source: "added", now }),
    ).rejects.toThrow(TypeError);
  });
});
