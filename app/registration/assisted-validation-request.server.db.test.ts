import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { answerOf, lineRequests, post } from "../../tests/support/line-requests";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import {
  loadAssistedValidationPage,
  submitAssistedValidation,
  type AssistedValidationAnswer,
} from "./assisted-validation-request.server";
import { listAssistedValidations } from "./assisted-validations.server";

// Issue 48, decision 0140: the request for an assisted validation, as the route's action runs it.

const URL_OF_PAGE = "http://localhost/registro-de-linea/validacion-asistida";

let db: Db;
let lines: ReturnType<typeof lineRequests>;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
  lines = lineRequests(db);
});
afterEach(async () => {
  lines.cleanup();
  await db.destroy();
});

type Browser = ReturnType<typeof lines.browser>;

async function send(browser: Browser, fields: Record<string, string>) {
  const answer = answerOf(
    await submitAssistedValidation(browser.request(), post(URL_OF_PAGE, fields)),
  );
  return { ...answer, body: answer.body as AssistedValidationAnswer };
}

const keyOf = (browser: Browser) => loadAssistedValidationPage(browser.request()).idempotencyKey;

const form = (key: string, overrides: Record<string, string> = {}) => ({
  contacto: "(55) 3333-4444",
  numero: "55 1111 2222",
  franja: "noche",
  idempotency_key: key,
  ...overrides,
});

describe("the request for an assisted validation", () => {
  it("is recorded once per form key, answered with its folio, and logs no contact", async () => {
    const browser = lines.browser();
    const key = keyOf(browser);
    const first = await send(browser, form(key));
    expect(first.status).toBe(200);
    expect(first.body.receipt).toEqual({
      folio: expect.stringMatching(/^VAL-\d{4}-000001$/),
      number: "55 •••• 2222",
      timeWindow: "noche",
    });
    // Sent again (a reload, a double click): the same request.
    const again = await send(browser, form(key));
    expect(again.body.receipt).toEqual(first.body.receipt);
    const rows = await listAssistedValidations(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      number: "5511112222",
      contact: { kind: "phone", value: "5533334444" },
    });
    const logged = JSON.stringify([lines.logger.info.mock.calls, lines.logger.warn.mock.calls]);
    expect(logged).toContain("assisted validation requested");
    expect(logged).not.toContain("5533334444");
    expect(logged).not.toContain("3333-4444");
  });

  it("refuses bad input next to each field with a 400, and another browser's key with a 409", async () => {
    const browser = lines.browser();
    const key = keyOf(browser);
    const bad = await send(browser, form(key, { contacto: "ana@", numero: "123", franja: "" }));
    expect(bad.status).toBe(400);
    expect(bad.body.result?.error).toEqual({
      contacto: ["registration:assisted.errors.contactInvalid"],
      numero: ["registration:assisted.errors.numberFormat"],
      franja: ["registration:assisted.errors.windowRequired"],
    });
    const stranger = lines.browser(null, "203.0.113.9");
    keyOf(stranger);
    const copied = await send(stranger, form(key));
    expect(copied.status).toBe(409);
    expect(copied.body.result?.error?.[""]).toEqual(["registration:assisted.errors.staleForm"]);
    expect(await listAssistedValidations(db)).toEqual([]);
  });

  it("takes at most 3 new requests a day for one number, and 5 from one address", async () => {
    const browser = lines.browser();
    for (let count = 1; count <= 3; count++) {
      expect((await send(browser, form(keyOf(browser)))).status).toBe(200);
    }
    const fourth = await send(browser, form(keyOf(browser)));
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(fourth.body.result?.error?.[""]).toEqual(["registration:assisted.errors.rateLimited"]);
    // Other numbers from the same address: 5 counted in all (the refused one too), then refused.
    expect((await send(browser, form(keyOf(browser), { numero: "5511113333" }))).status).toBe(200);
    expect((await send(browser, form(keyOf(browser), { numero: "5511114444" }))).status).toBe(429);
    expect(await listAssistedValidations(db)).toHaveLength(4);
  });
});
