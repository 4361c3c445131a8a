import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import {
  checkLineCode,
  createLineCodeHasher,
  issueLineCode,
  lineCodeId,
  newLineCode,
  pendingLineCode,
  withdrawLineCode,
} from "./line-codes.server";
import { LINE_CODE_KEPT_MS, LINE_CODE_LIFETIME_MS, LINE_CODE_MAX_ATTEMPTS } from "./line-code";

let db: Db;
const NOW = new Date("2026-11-25T12:00:00.000Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);
const hasher = createLineCodeHasher(["line-codes-under-test-".padEnd(40, "x")]);
const NUMBER = "5511112222";
const ana = { holder: "ana", purpose: "add-line" as const, number: NUMBER };

beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

async function issue(code: string, nonce = "nonce-1", at = NOW, holder = "ana") {
  const id = lineCodeId("add-line", nonce, NUMBER);
  return issueLineCode(db, { ...ana, holder, id, now: at, hasher, code });
}

const check = (code: string, at = NOW, holder = "ana") =>
  checkLineCode(db, { ...ana, holder, code, now: at, hasher });

describe("the SMS codes that prove a number", () => {
  it("keeps only a keyed hash of the code, never the code", async () => {
    expect(await issue("123456")).toEqual({ issued: true, code: "123456" });
    const rows = await db.selectFrom("line_codes").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain("123456");
    // Another secret makes another hash: the database alone cannot be searched for the code.
    const other = createLineCodeHasher(["another-secret-".padEnd(40, "y")]);
    expect(other.matches(rows[0]!.id, "123456", rows[0]!.code_hash)).toBe(false);
  });

  it("proves the number with the right code, once", async () => {
    await issue("123456");
    expect(await check("123456")).toMatchObject({ kind: "proved" });
    expect(await check("123456")).toEqual({ kind: "none" });
  });

  it("counts wrong tries, and after five asks for a new code even when the sixth is right", async () => {
    await issue("123456");
    for (let left = LINE_CODE_MAX_ATTEMPTS - 1; left >= 0; left -= 1) {
      expect(await check("000000")).toEqual({ kind: "wrong", attemptsLeft: left });
    }
    expect(await check("123456")).toEqual({ kind: "exhausted" });
    expect(await pendingLineCode(db, { holder: "ana", purpose: "add-line" }, NOW)).toBeNull();
    // A new code counts afresh; the old one is no longer the one that counts.
    await issue("654321", "nonce-2", later(1000));
    expect(await check("123456", later(2000))).toEqual({
      kind: "wrong",
      attemptsLeft: LINE_CODE_MAX_ATTEMPTS - 1,
    });
    expect(await check("654321", later(3000))).toMatchObject({ kind: "proved" });
  });

  it("takes the last try once when two arrive at once", async () => {
    await issue("123456");
    for (let index = 0; index < LINE_CODE_MAX_ATTEMPTS - 1; index += 1) await check("000000");
    const answers = await Promise.all([check("111111"), check("222222")]);
    expect(answers.map((answer) => answer.kind).sort()).toEqual(["exhausted", "wrong"]);
  });

  it("expires ten minutes after it was sent", async () => {
    await issue("123456");
    expect(await check("123456", later(LINE_CODE_LIFETIME_MS))).toEqual({ kind: "expired" });
    expect(
      await pendingLineCode(
        db,
        { holder: "ana", purpose: "add-line" },
        later(LINE_CODE_LIFETIME_MS),
      ),
    ).toBeNull();
  });

  it("is the holder's own: another account's right code proves nothing here", async () => {
    await issue("123456", "nonce-1", NOW, "beto");
    expect(await check("123456")).toEqual({ kind: "none" });
    expect(await check("123456", NOW, "beto")).toMatchObject({ kind: "proved" });
  });

  it("is issued once per form sent: the same form again sends no second code", async () => {
    expect(await issue("123456")).toMatchObject({ issued: true });
    expect(await issue("999999")).toEqual({ issued: false });
    expect(await check("123456")).toMatchObject({ kind: "proved" });
  });

  it("is forgotten when it could not be sent, so that the form sent again makes a new one", async () => {
    await issue("123456");
    await withdrawLineCode(db, lineCodeId("add-line", "nonce-1", NUMBER));
    expect(await issue("222222")).toEqual({ issued: true, code: "222222" });
  });

  it("tells the holder which number waits for its code", async () => {
    expect(await pendingLineCode(db, { holder: "ana", purpose: "add-line" }, NOW)).toBeNull();
    await issue("123456");
    await check("000000");
    expect(await pendingLineCode(db, { holder: "ana", purpose: "add-line" }, NOW)).toEqual({
      number: NUMBER,
      expiresAt: later(LINE_CODE_LIFETIME_MS).toISOString(),
      attemptsLeft: LINE_CODE_MAX_ATTEMPTS - 1,
    });
    expect(await pendingLineCode(db, { holder: "ana", purpose: "balance" }, NOW)).toBeNull();
  });

  it("makes six digits", () => {
    for (let index = 0; index < 50; index += 1) expect(newLineCode()).toMatch(/^\d{6}$/);
  });
});

describe("old codes", () => {
  it("are deleted a day after they expired, used or not, when a new code is made", async () => {
    const ids = async () =>
      (await db.selectFrom("line_codes").select("id").orderBy("created_at").execute()).map(
        (row) => row.id,
      );
    await issue("111111", "used");
    expect(await check("111111")).toMatchObject({ kind: "proved" });
    await issue("222222", "expired", later(LINE_CODE_LIFETIME_MS));
    await issue("333333", "recent", later(20 * 60 * 60 * 1000));
    expect(await ids()).toHaveLength(3);

    await issue("444444", "next-day", later(2 * LINE_CODE_LIFETIME_MS + LINE_CODE_KEPT_MS + 1));

    expect(await ids()).toEqual([
      lineCodeId("add-line", "recent", NUMBER),
      lineCodeId("add-line", "next-day", NUMBER),
    ]);
  });
});
