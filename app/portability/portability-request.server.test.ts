import { describe, expect, it, vi } from "vitest";
import { issueFormKey } from "~/lib/form-key.server";
import { curpCheckDigit } from "~/registration/curp";
import type { PortabilityRequests } from "./requests.server";
import { newBrowser } from "../../tests/support/browser-requests";
import { submitPortabilityRequest } from "./portability-request.server";
import type { RequestContext } from "~/context";

const curp = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");

function post(fields: Record<string, string>) {
  return new Request("http://localhost/portabilidad", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
}

const form = {
  phone_number: "5511112222",
  nip: "7391",
  full_name: "Ana Gómez",
  email: "ana@example.mx",
  curp,
  current_carrier: "telcel",
  accept_terms: "on",
};

/** A browser that has seen the form, and the key the form gave it. */
function browserWithForm(extra: Partial<RequestContext>) {
  const browser = newBrowser(extra);
  const key = issueFormKey(browser.request(), "portability");
  return { key, context: browser.request() };
}

interface Replied {
  data: {
    result: { initialValue: Record<string, unknown> };
    problem: { kind: string } | null;
  };
  init: { status: number };
}

/** A database that cannot take the write for a moment, as better-sqlite3 reports it. */
function databaseBusy() {
  return Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
}

function sendForm(failure: Error) {
  const logger = { error: vi.fn(), warn: vi.fn() };
  const portability = {
    submit: vi.fn().mockRejectedValue(failure),
  } as unknown as PortabilityRequests;
  const browser = browserWithForm({
    portability,
    logger,
    requestId: "r1",
  } as unknown as Partial<RequestContext>);
  const answer = submitPortabilityRequest(
    browser.context,
    post({ ...form, idempotency_key: browser.key }),
    null,
  ) as unknown as Promise<Replied>;
  return { answer, logger };
}

describe("the portability request form sent", () => {
  it("answers a database failure with the Spanish 'unavailable' message, values kept, NIP neither echoed nor logged", async () => {
    const { answer, logger } = sendForm(databaseBusy());
    const response = await answer;

    expect(response.init.status).toBe(503);
    expect(response.data.problem).toEqual({ kind: "unavailable" });
    expect(response.data.result.initialValue).toMatchObject({
      full_name: "Ana Gómez",
      phone_number: "5511112222",
    });
    expect(JSON.stringify(response.data)).not.toContain("7391");
    // Through the helper every form's database failure goes through: a warning, its code only.
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain("7391");
  });

  it("lets any other failure reach the error boundary, like every form's", async () => {
    const { answer } = sendForm(new TypeError("a bug"));
    await expect(answer).rejects.toThrow("a bug");
  });
});
