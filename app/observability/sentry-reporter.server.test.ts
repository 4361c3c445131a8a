import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  startErrorTrackerStandIn,
  type ErrorTrackerStandIn,
} from "../../tests/support/error-tracker-stand-in";
import { createSentryReporter } from "./sentry-reporter.server";

const silent = { warn: () => undefined };
let tracker: ErrorTrackerStandIn;

beforeEach(async () => {
  tracker = await startErrorTrackerStandIn();
});
afterEach(async () => {
  await tracker.close();
});

describe("error reports through Sentry's envelopes", () => {
  it("sends the error with the request's id, route and method, and nothing personal", async () => {
    const reporter = createSentryReporter({
      dsn: tracker.dsn,
      environment: "test",
      release: "storefront@test",
      logger: silent,
    });
    const error = Object.assign(
      new Error(
        "duplicate key value violates unique constraint: Key (email)=(ana.lopez@example.com) phone 5512345678, Authorization: Bearer sk_live_abcdef",
      ),
      {
        code: "23505",
        email: "ana.lopez@example.com",
        headers: { cookie: "__Host-session=sealed" },
      },
    );
    error.cause = new Error("caused by a token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig");
    reporter.report(error, { requestId: "req-123", route: "routes/pedido", method: "POST" });
    await reporter.flush(2_000);

    const [event] = tracker.events();
    expect(event, JSON.stringify(tracker.envelopes)).toBeDefined();
    expect(event!.tags).toMatchObject({
      request_id: "req-123",
      route: "routes/pedido",
      method: "POST",
    });
    expect(event!.environment).toBe("test");
    expect(event!.release).toBe("storefront@test");
    expect(event!.transaction).toBe("POST routes/pedido");
    const exceptions = (event!.exception as { values: Array<{ type: string; value: string }> })
      .values;
    // The error and its cause, each with its type and a scrubbed message.
    expect(exceptions.map((exception) => exception.type)).toEqual(["Error", "Error"]);
    expect(exceptions.some((exception) => exception.value.includes("duplicate key value"))).toBe(
      true,
    );
    for (const field of ["request", "user", "breadcrumbs", "extra"]) {
      expect(event, field).not.toHaveProperty(field);
    }
    const raw = tracker.envelopes.map((envelope) => envelope.raw).join("\n");
    for (const personal of [
      "ana.lopez@example.com",
      "5512345678",
      "sk_live_abcdef",
      "__Host-session",
      "eyJhbGciOiJIUzI1NiJ9",
    ]) {
      expect(raw).not.toContain(personal);
    }
    // Sentry's own key travels in the address, as its protocol says, never in the event.
    expect(tracker.envelopes[0]!.path).toBe("/api/4242/envelope/");
  });

  it("a tracker out of reach costs nothing but the report", async () => {
    const warnings: unknown[] = [];
    const reporter = createSentryReporter({
      dsn: "http://publickey@127.0.0.1:9/4242",
      environment: "test",
      logger: { warn: (entry: unknown) => warnings.push(entry) },
    });
    expect(() =>
      reporter.report(new Error("boom"), { requestId: "r", route: "root", method: "GET" }),
    ).not.toThrow();
    await reporter.flush(2_000);
    expect(warnings).toEqual([{ msg: "error report not delivered", cause: "TypeError" }]);
  });
});
