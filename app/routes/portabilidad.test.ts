import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { issueFormKey } from "~/lib/form-key.server";
import { curpCheckDigit } from "~/portability/curp";
import type { PortabilityRequests } from "~/portability/requests.server";
import { newBrowser } from "../../tests/support/browser-requests";
import { action } from "./portabilidad";

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
function browserWithForm(extra: Partial<AppLoadContext>) {
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

describe("the portability action", () => {
  it("answers a database failure with the Spanish 'unavailable' message, values kept, NIP neither echoed nor logged", async () => {
    const logger = { error: vi.fn() };
    const portability = {
      submit: vi.fn().mockRejectedValue(new Error("SQLITE_BUSY: database is locked")),
    } as unknown as PortabilityRequests;
    const browser = browserWithForm({
      portability,
      logger,
      requestId: "r1",
    } as unknown as Partial<AppLoadContext>);
    const { context } = browser;

    const response = (await action({
      request: post({ ...form, idempotency_key: browser.key }),
      context,
      params: {},
    })) as unknown as Replied;

    expect(response.init.status).toBe(503);
    expect(response.data.problem).toEqual({ kind: "unavailable" });
    expect(response.data.result.initialValue).toMatchObject({
      full_name: "Ana Gómez",
      phone_number: "5511112222",
    });
    expect(JSON.stringify(response.data)).not.toContain("7391");
    expect(logger.error).toHaveBeenCalledOnce();
    expect(JSON.stringify(logger.error.mock.calls)).not.toContain("7391");
  });
});
