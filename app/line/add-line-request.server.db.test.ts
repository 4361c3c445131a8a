import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/db.server";
import { answerOf, customer, lineRequests, post } from "../../tests/support/line-requests";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { loadAddLineForm, submitAddLine } from "./add-line-request.server";
import { BssUnavailable } from "./bss";
import { LINE_CODE_MAX_ATTEMPTS } from "./line-code";
import { LINE_FORM_INTENTS } from "./line-forms";
import { accountOfLine, linkLine } from "./lines.server";

let db: Db;
let lines: ReturnType<typeof lineRequests>;
const ana = customer("ana");
const beto = customer("beto");
const LINE = "5512345678";

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  lines = lineRequests(db);
});
afterEach(async () => {
  lines.cleanup();
  await db.destroy();
});

type Browser = ReturnType<typeof lines.browser>;

async function form(browser: Browser, who = ana) {
  return loadAddLineForm(browser.request(), who);
}

async function send(browser: Browser, fields: Record<string, string>, who = ana) {
  const { idempotencyKey } = await form(browser, who);
  return answerOf(
    await submitAddLine(
      browser.request(),
      post("http://localhost/my-account/lineas", { idempotency_key: idempotencyKey, ...fields }),
      who,
    ),
  );
}

const askCode = (browser: Browser, number: string, who = ana) =>
  send(browser, { intent: LINE_FORM_INTENTS.sendCode, phone_number: number }, who);
const typeCode = (browser: Browser, number: string, code: string, who = ana) =>
  send(browser, { intent: LINE_FORM_INTENTS.checkCode, phone_number: number, code }, who);

function messages(answer: { body: unknown }) {
  const { result } = answer.body as { result: { error?: Record<string, string[]> } };
  return result.error ?? {};
}

describe("adding a line the customer already has", () => {
  it("sends a code to the number, and with it puts the line in the account", async () => {
    const browser = lines.browser(ana);
    const asked = await askCode(browser, "55 1234 5678");
    expect(asked.status).toBe(303);
    expect(asked.headers.get("Location")).toBe("/my-account/lineas");
    expect((await form(browser)).pending).toEqual({
      number: LINE,
      attemptsLeft: LINE_CODE_MAX_ATTEMPTS,
    });
    const [sms] = await lines.sms(LINE);
    expect(sms).toMatchObject({ template: "line-code-add", to: LINE });
    // The code reaches the number only: never a log line.
    const code = await lines.code(LINE);
    expect(JSON.stringify(lines.logger.info.mock.calls)).not.toContain(code);

    const added = await typeCode(browser, LINE, code);
    expect(added.status).toBe(303);
    expect(added.headers.get("Location")).toBe(`/my-account/lineas/${LINE}`);
    expect(await accountOfLine(db, LINE)).toBe("ana");
    expect((await form(browser)).pending).toBeNull();
  });

  it("moves a line from another account only with the code sent to it", async () => {
    await linkLine(db, { number: LINE, accountSub: "beto", source: "added", now: new Date() });
    const browser = lines.browser(ana);
    await askCode(browser, LINE);
    expect(await accountOfLine(db, LINE)).toBe("beto");
    await typeCode(browser, LINE, await lines.code(LINE));
    expect(await accountOfLine(db, LINE)).toBe("ana");
  });

  it("never takes another account's code: the code is the account's that asked", async () => {
    await askCode(lines.browser(beto), LINE, beto);
    const code = await lines.code(LINE);
    const refused = await typeCode(lines.browser(ana), LINE, code);
    expect(refused.status).toBe(400);
    expect(messages(refused)).toEqual({ code: ["line:errors.codeExpired"] });
    expect(await accountOfLine(db, LINE)).toBeNull();
  });

  it("refuses bad numbers next to the field, in Spanish, with a 400 and no SMS", async () => {
    const browser = lines.browser(ana);
    for (const [number, message] of [
      ["", "line:errors.phoneRequired"],
      ["55 1234", "line:errors.phoneDigits"],
      ["9900001234", "line:errors.lineUnknown"],
      ["9900021234", "line:errors.lineTerminated"],
    ] as const) {
      const answer = await askCode(browser, number);
      expect(answer.status, number).toBe(400);
      expect(messages(answer), number).toEqual({ phone_number: [message] });
    }
    await linkLine(db, { number: LINE, accountSub: "ana", source: "added", now: new Date() });
    expect(messages(await askCode(browser, LINE))).toEqual({
      phone_number: ["line:errors.lineAlreadyYours"],
    });
    expect(await lines.sms("9900001234")).toEqual([]);
    expect(await lines.sms(LINE)).toEqual([]);
  });

  it("counts wrong codes; after 5 a new code must be asked for", async () => {
    const browser = lines.browser(ana);
    await askCode(browser, LINE);
    const code = await lines.code(LINE);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let index = 0; index < LINE_CODE_MAX_ATTEMPTS; index += 1) {
      expect((await typeCode(browser, LINE, wrong)).status).toBe(400);
    }
    const refused = await typeCode(browser, LINE, code);
    expect(messages(refused)).toEqual({ code: ["line:errors.codeExhausted"] });
    expect(await accountOfLine(db, LINE)).toBeNull();

    const again = await send(browser, {
      intent: LINE_FORM_INTENTS.resendCode,
      phone_number: LINE,
    });
    expect(again.status).toBe(303);
    expect((await typeCode(browser, LINE, await lines.code(LINE))).status).toBe(303);
    expect(await accountOfLine(db, LINE)).toBe("ana");
  });

  it("refuses a form key from another browser with a 409 and a key of its own", async () => {
    const { idempotencyKey } = await form(lines.browser(beto), beto);
    const answer = answerOf(
      await submitAddLine(
        lines.browser(ana).request(),
        post("http://localhost/my-account/lineas", {
          intent: LINE_FORM_INTENTS.sendCode,
          phone_number: LINE,
          idempotency_key: idempotencyKey,
        }),
        ana,
      ),
    );
    expect(answer.status).toBe(409);
    expect(messages(answer)).toEqual({ "": ["line:errors.staleForm"] });
    expect(await lines.sms(LINE)).toEqual([]);
  });

  it("answers the BSS away with a Spanish 503 and sends nothing", async () => {
    vi.spyOn(lines.bss, "findLine").mockRejectedValue(
      new BssUnavailable("down", { reason: "timeout" }),
    );
    const answer = await askCode(lines.browser(ana), LINE);
    expect(answer.status).toBe(503);
    expect(messages(answer)).toEqual({ "": ["line:errors.unavailable"] });
    expect(await lines.sms(LINE)).toEqual([]);
  });

  it("keeps another account asking for the same number waiting only the back-off, with a Spanish 429", async () => {
    lines = lineRequests(db, { limits: { backoffSeconds: 60 } });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    try {
      expect((await askCode(lines.browser(ana), LINE)).status).toBe(303);
      const limited = await askCode(lines.browser(beto, "203.0.113.50"), LINE, beto);
      expect(limited.status).toBe(429);
      expect(messages(limited)).toEqual({ "": ["line:errors.rateLimited"] });
      vi.setSystemTime(start + 61_000);
      expect((await askCode(lines.browser(beto, "203.0.113.50"), LINE, beto)).status).toBe(303);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never sends the account's own line a code, whatever strangers asked for it", async () => {
    lines = lineRequests(db, { limits: { backoffSeconds: 60 } });
    await linkLine(db, { number: LINE, accountSub: ana.sub, source: "added", now: new Date() });
    expect((await askCode(lines.browser(beto, "203.0.113.50"), LINE, beto)).status).toBe(303);
    const own = await askCode(lines.browser(ana), LINE);
    expect(own.status).toBe(400);
    expect(messages(own)).toEqual({ phone_number: ["line:errors.lineAlreadyYours"] });
    expect(await lines.sms(LINE)).toHaveLength(1);
  });
});
