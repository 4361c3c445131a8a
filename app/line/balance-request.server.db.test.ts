import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/db.server";
import { answerOf, customer, lineRequests, post } from "../../tests/support/line-requests";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { BALANCE_SHOWN_MS } from "./balance-access.server";
import { loadBalancePage, submitBalance } from "./balance-request.server";
import { BssUnavailable } from "./bss";
import { LINE_CODE_MAX_ATTEMPTS } from "./line-code";
import { LINE_FORM_INTENTS } from "./line-forms";
import { lineCodeBudgetUse } from "./line-proof.server";
import { linkLine } from "./lines.server";
import type { RequestContext } from "~/context";

let db: Db;
let lines: ReturnType<typeof lineRequests>;

/** A sandbox line (active, no package) and a number the simulator does not know. */
const LINE = "5512345678";
const NO_LINE = "9900001234";

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  lines = lineRequests(db);
});
afterEach(async () => {
  vi.useRealTimers();
  lines.cleanup();
  await db.destroy();
});

type Browser = ReturnType<typeof lines.browser>;

interface PageData {
  step: "number" | "code" | "shown";
  number: string | null;
  idempotencyKey: string;
  figures: { state: string; summary?: { status: string } } | null;
}

async function page(browser: Browser) {
  const answer = answerOf(await loadBalancePage(browser.request()));
  return { ...answer, body: answer.body as PageData };
}

async function send(browser: Browser, fields: Record<string, string>) {
  const { idempotencyKey } = (await page(browser)).body;
  return answerOf(
    await submitBalance(
      browser.request(),
      post("http://localhost/saldo", { idempotency_key: idempotencyKey, ...fields }),
    ),
  );
}

const askCode = (browser: Browser, number: string) =>
  send(browser, { intent: LINE_FORM_INTENTS.sendCode, phone_number: number });
const typeCode = (browser: Browser, code: string) =>
  send(browser, { intent: LINE_FORM_INTENTS.checkCode, code });

function messages(answer: { body: unknown }) {
  const { result } = answer.body as { result: { error?: Record<string, string[]> } };
  return result.error ?? {};
}

describe("/saldo", () => {
  it("shows the line for 15 minutes in the browser that typed the code sent to it", async () => {
    const browser = lines.browser();
    expect((await page(browser)).body).toMatchObject({ step: "number" });
    expect((await askCode(browser, "55 1234 5678")).status).toBe(303);
    expect((await page(browser)).body).toMatchObject({ step: "code", number: LINE });
    const [sms] = await lines.sms(LINE);
    expect(sms).toMatchObject({ template: "line-code-balance" });

    expect((await typeCode(browser, await lines.code(LINE))).status).toBe(303);
    const shown = await page(browser);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      step: "shown",
      number: LINE,
      figures: { state: "shown", summary: { status: "active" } },
    });
    // Another browser sees nothing of it.
    expect((await page(lines.browser())).body).toMatchObject({ step: "number" });

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + BALANCE_SHOWN_MS + 1000 });
    expect((await page(browser)).body).toMatchObject({ step: "number" });
  });

  it("answers a number that is no line exactly as a line's, and sends it nothing", async () => {
    const answers = [];
    for (const number of [LINE, NO_LINE]) {
      const browser = lines.browser();
      const sent = await askCode(browser, number);
      const waiting = await page(browser);
      const tries = [];
      for (let index = 0; index <= LINE_CODE_MAX_ATTEMPTS; index += 1) {
        const typed = await typeCode(browser, "000000");
        tries.push([typed.status, messages(typed)]);
      }
      answers.push({
        sent: [sent.status, sent.headers.get("Location")],
        step: waiting.body.step,
        tries,
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.tries.at(-1)).toEqual([400, { code: ["line:errors.codeExhausted"] }]);
    expect(await lines.sms(NO_LINE)).toEqual([]);
    expect(await lines.sms(LINE)).toHaveLength(1);
  });

  it("asks for a new code after 5 wrong ones, even for the right one", async () => {
    const browser = lines.browser();
    await askCode(browser, LINE);
    const code = await lines.code(LINE);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let left = LINE_CODE_MAX_ATTEMPTS - 1; left > 0; left -= 1) {
      expect(messages(await typeCode(browser, wrong))).toEqual({
        code: [`line:errors.codeWrong?left=${left}`],
      });
    }
    expect(messages(await typeCode(browser, wrong))).toEqual({
      code: ["line:errors.codeExhausted"],
    });
    const refused = await typeCode(browser, code);
    expect(refused.status).toBe(400);
    expect(messages(refused)).toEqual({ code: ["line:errors.codeExhausted"] });

    await send(browser, { intent: LINE_FORM_INTENTS.resendCode });
    expect(await lines.sms(LINE)).toHaveLength(2);
    expect((await typeCode(browser, await lines.code(LINE))).status).toBe(303);
    expect((await page(browser)).body).toMatchObject({ step: "shown" });
  });

  it("refuses a number that is not 10 digits and a code that is not 6, in Spanish, with a 400", async () => {
    const browser = lines.browser();
    const short = await askCode(browser, "55123");
    expect(short.status).toBe(400);
    expect(messages(short)).toEqual({ phone_number: ["line:errors.phoneDigits"] });
    await askCode(browser, LINE);
    const code = await typeCode(browser, "12a");
    expect(code.status).toBe(400);
    expect(messages(code)).toEqual({ code: ["line:errors.codeDigits"] });
  });

  it("limits the codes from one address and one browser, with a Spanish 429, and no one else", async () => {
    lines = lineRequests(db, { limits: { perIp: 4, perHolder: 2 } });
    const from = (browser: Browser, number: string) => askCode(browser, number);
    const busy = lines.browser(null, "198.51.100.9");
    expect((await from(busy, "5511110001")).status).toBe(303);
    expect((await from(busy, "5511110002")).status).toBe(303);
    const limited = await from(busy, "5511110003");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(messages(limited)).toEqual({ "": ["line:errors.rateLimited"] });
    expect((await from(lines.browser(null, "198.51.100.9"), "5511110003")).status).toBe(303);
    expect((await from(lines.browser(null, "198.51.100.9"), "5511110004")).status).toBe(429);
    // Neither the address nor the browser over their limits keeps anyone else from those numbers.
    expect((await from(lines.browser(null, "203.0.113.4"), "5511110003")).status).toBe(303);
  });

  it("a stranger asking for codes for a number keeps its owner waiting only the short back-off", async () => {
    lines = lineRequests(db, { limits: { backoffSeconds: 60 } });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const strangerAsks = async (index: number) =>
      (await askCode(lines.browser(null, `203.0.113.${index}`), LINE)).status;
    // Six requests from six addresses: one SMS, the rest wait the minute.
    const answers = [];
    for (let index = 1; index <= 6; index += 1) answers.push(await strangerAsks(index));
    expect(answers).toEqual([303, 429, 429, 429, 429, 429]);
    expect(await lines.sms(LINE)).toHaveLength(1);

    const owner = lines.browser(null, "198.51.100.20");
    const waiting = await askCode(owner, LINE);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    vi.setSystemTime(start + 61_000);
    expect((await askCode(owner, LINE)).status).toBe(303);
    expect((await typeCode(owner, await lines.code(LINE))).status).toBe(303);
    expect((await page(owner)).body).toMatchObject({ step: "shown", number: LINE });
  });

  it("spaces the codes a flood sends to one number, doubling from a minute to 15", async () => {
    lines = lineRequests(db, { limits: { backoffSeconds: 60 } });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    let address = 0;
    const ask = async (atMinute: number) => {
      vi.setSystemTime(start + atMinute * 60_000);
      address += 1;
      return (await askCode(lines.browser(null, `203.0.113.${address}`), LINE)).status;
    };
    // Each at the moment the back-off the one before set ends, and one a second too early.
    const schedule = [0, 1, 3, 7, 15, 30, 45];
    for (const [index, minute] of schedule.entries()) {
      if (index > 0) expect(await ask(minute - 1 / 60)).toBe(429);
      expect(await ask(minute)).toBe(303);
    }
    expect(await ask(59)).toBe(429);
    expect(await lines.sms(LINE)).toHaveLength(schedule.length);
  });

  it("stops checking and sending codes for a number once too many wrong ones were typed for it", async () => {
    lines = lineRequests(db, { limits: { failedChecks: 12 } });
    // Three requesters, five wrong tries each at their own codes: 12 count, then no more.
    const typed: number[] = [];
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      const browser = lines.browser(null, address);
      await askCode(browser, LINE);
      for (let attempt = 0; attempt < LINE_CODE_MAX_ATTEMPTS; attempt += 1) {
        typed.push((await typeCode(browser, "000000")).status);
      }
    }
    expect(typed.filter((status) => status === 400)).toHaveLength(12);
    expect(typed.slice(12)).toEqual([429, 429, 429]);

    const owner = lines.browser(null, "198.51.100.20");
    const refused = await askCode(owner, LINE);
    expect(refused.status).toBe(429);
    expect(messages(refused)).toEqual({ "": ["line:errors.rateLimited"] });
    expect(await lines.sms(LINE)).toHaveLength(3);
    // Another number is not concerned.
    expect((await askCode(owner, "5511110001")).status).toBe(303);
  });

  it("refuses codes with the Spanish 'try again' once the store's hourly SMS budget is spent", async () => {
    lines = lineRequests(db, { limits: { budget: 2 } });
    expect((await askCode(lines.browser(null, "203.0.113.1"), "5511110001")).status).toBe(303);
    expect((await askCode(lines.browser(null, "203.0.113.2"), "5511110002")).status).toBe(303);
    const spent = await askCode(lines.browser(null, "203.0.113.3"), "5511110003");
    expect(spent.status).toBe(503);
    expect(messages(spent)).toEqual({ "": ["line:errors.unavailable"] });
    expect(await lines.sms("5511110003")).toEqual([]);
    expect(await lineCodeBudgetUse(lines.services as unknown as RequestContext)).toEqual({
      sent: 2,
      budget: 2,
    });
  });

  it("shows a signed-in customer's own line without a code, and sends others' a code", async () => {
    await linkLine(db, { number: LINE, accountSub: "sub-ana", source: "added", now: new Date() });
    const ana = lines.browser(customer("sub-ana"));
    const ask = async (browser: Browser, number: string, sub: string | null) => {
      const { idempotencyKey } = (await page(browser)).body;
      const form = { intent: LINE_FORM_INTENTS.sendCode, phone_number: number };
      return answerOf(
        await submitBalance(
          browser.request(),
          post("http://localhost/saldo", { ...form, idempotency_key: idempotencyKey }),
          sub,
        ),
      );
    };
    expect((await ask(ana, LINE, "sub-ana")).status).toBe(303);
    expect((await page(ana)).body).toMatchObject({ step: "shown", number: LINE });
    expect(await lines.sms(LINE)).toEqual([]);

    const beto = lines.browser(customer("sub-beto"));
    expect((await ask(beto, LINE, "sub-beto")).status).toBe(303);
    expect((await page(beto)).body).toMatchObject({ step: "code", number: LINE });
    expect(await lines.sms(LINE)).toHaveLength(1);
  });

  it("sends one code for the same form sent twice", async () => {
    const browser = lines.browser();
    const { idempotencyKey } = (await page(browser)).body;
    for (let index = 0; index < 2; index += 1) {
      const answer = answerOf(
        await submitBalance(
          browser.request(),
          post("http://localhost/saldo", {
            intent: LINE_FORM_INTENTS.sendCode,
            phone_number: LINE,
            idempotency_key: idempotencyKey,
          }),
        ),
      );
      expect(answer.status).toBe(303);
    }
    expect(await lines.sms(LINE)).toHaveLength(1);
  });

  it("says it could not read the line when the BSS is away (503), never a 500", async () => {
    const browser = lines.browser();
    await askCode(browser, LINE);
    await typeCode(browser, await lines.code(LINE));
    vi.spyOn(lines.bss, "findLine").mockRejectedValue(
      new BssUnavailable("down", { reason: "unreachable" }),
    );
    const shown = await page(browser);
    expect(shown.status).toBe(503);
    expect(shown.body).toMatchObject({ step: "shown", figures: { state: "unavailable" } });
    const asked = await askCode(lines.browser(), "5587654321");
    expect(asked.status).toBe(503);
    expect(messages(asked)).toEqual({ "": ["line:errors.unavailable"] });
  });

  it("forgets the number when asked, for another one", async () => {
    const browser = lines.browser();
    await askCode(browser, LINE);
    expect((await send(browser, { intent: LINE_FORM_INTENTS.forget })).status).toBe(303);
    expect((await page(browser)).body).toMatchObject({ step: "number" });
  });
});
