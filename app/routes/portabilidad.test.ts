import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { createCookieJar } from "~/lib/cookie-jar.server";
import { createSealedCookie } from "~/lib/sealed-cookie.server";
import { curpCheckDigit } from "~/portability/curp";
import { portabilityAccessSchema, portabilityFormKey } from "~/portability/request-access.server";
import type { PortabilityRequests } from "~/portability/requests.server";
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

const portabilityCookie = createSealedCookie({
  name: "portabilidad",
  secrets: ["portability-route-test-".padEnd(40, "r")],
  secure: false,
  schema: portabilityAccessSchema,
});

/** A browser that has seen the form: its cookie, and the key the form gave it. */
function browserWithForm() {
  const visit = {
    jar: createCookieJar(null),
    cookies: { portability: portabilityCookie },
  } as unknown as AppLoadContext;
  const key = portabilityFormKey(visit);
  const cookieHeader = visit.jar
    .setCookieHeaders({ redirect: false })
    .map((line) => line.split(";")[0])
    .join("; ");
  return { key, jar: createCookieJar(cookieHeader) };
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
    const browser = browserWithForm();
    const context = {
      portability,
      logger,
      requestId: "r1",
      newViewToken: () => "reply-1",
      jar: browser.jar,
      cookies: { portability: portabilityCookie },
    } as unknown as AppLoadContext;

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
