import { describe, expect, it } from "vitest";
import {
  createMetrics,
  limiterName,
  measuredCalls,
  methodLabel,
  outcomeOf,
  statusClass,
  type CallOutcome,
} from "./metrics.server";

/** The value of one series in the registry's exposition, or undefined. */
async function sample(metrics: ReturnType<typeof createMetrics>, series: string) {
  const text = await metrics.registry.metrics();
  const line = text.split("\n").find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("labels", () => {
  it("names a limiter by its keys' prefix, never by what follows it", () => {
    expect(limiterName("topup-ip:203.0.113.7")).toBe("topup-ip");
    expect(limiterName("user:ana@example.com")).toBe("user");
    expect(limiterName("order-lookup-folio:PED-2026-000001:1.2.3.4")).toBe("order-lookup-folio");
    // A key whose prefix is not a plain name from the code is counted as "other".
    expect(limiterName("ana@example.com")).toBe("other");
    expect(limiterName("5512345678:x")).toBe("other");
    expect(limiterName("Ana@Example.com:x")).toBe("other");
  });

  it("keeps a client's made-up method and status out of the labels", () => {
    expect(methodLabel("GET")).toBe("GET");
    expect(methodLabel("POST")).toBe("POST");
    expect(methodLabel("PROPFIND")).toBe("other");
    expect(statusClass(200)).toBe("2xx");
    expect(statusClass(304)).toBe("3xx");
    expect(statusClass(429)).toBe("4xx");
    expect(statusClass(503)).toBe("5xx");
    expect(statusClass(999)).toBe("other");
  });
});

describe("the request histogram", () => {
  it("counts requests by route, method and status class", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("routes/plans", "GET", 200, 0.004);
    metrics.observeRequest("routes/plans", "GET", 200, 0.2);
    metrics.observeRequest("routes/plans", "PROPFIND", 404, 0.001);
    const series =
      'storefront_http_request_duration_seconds_count{route="routes/plans",method="GET",status_class="2xx"}';
    expect(await sample(metrics, series)).toBe(2);
    expect(
      await sample(
        metrics,
        'storefront_http_request_duration_seconds_bucket{le="0.005",route="routes/plans",method="GET",status_class="2xx"}',
      ),
    ).toBe(1);
    expect(
      await sample(
        metrics,
        'storefront_http_request_duration_seconds_count{route="routes/plans",method="other",status_class="4xx"}',
      ),
    ).toBe(1);
  });
});

describe("outside calls", () => {
  function adapter() {
    return {
      name: "tmf",
      async findLine(number: string) {
        if (number === "down") throw Object.assign(new Error("x"), { name: "BssUnavailable" });
        if (number === "no") throw Object.assign(new Error("x"), { name: "BssRefused" });
        if (number === "bug") throw new TypeError("bug");
        return { number };
      },
      helper: () => "not measured",
    };
  }

  it("times each operation by outcome and leaves everything else of the adapter as it was", async () => {
    const seen: Array<[string, string, CallOutcome]> = [];
    const measured = measuredCalls(
      { outsideCall: (system, operation, outcome) => seen.push([system, operation, outcome]) },
      "bss",
      adapter(),
      ["findLine"],
    );
    expect(measured.name).toBe("tmf");
    expect(measured.helper()).toBe("not measured");
    expect(await measured.findLine("5512345678")).toEqual({ number: "5512345678" });
    for (const number of ["down", "no", "bug"]) {
      await measured.findLine(number).catch(() => undefined);
    }
    await expect(measured.findLine("down")).rejects.toMatchObject({ name: "BssUnavailable" });
    expect(seen).toEqual([
      ["bss", "findLine", "ok"],
      ["bss", "findLine", "unavailable"],
      ["bss", "findLine", "refused"],
      ["bss", "findLine", "error"],
      ["bss", "findLine", "unavailable"],
    ]);
  });

  it("reads the outcome from the adapters' own error names", () => {
    expect(outcomeOf(Object.assign(new Error(), { name: "PaymentProviderUnavailable" }))).toBe(
      "unavailable",
    );
    expect(outcomeOf(Object.assign(new Error(), { name: "SmsRefused" }))).toBe("refused");
    expect(outcomeOf(new Error("anything"))).toBe("error");
    expect(outcomeOf("not an error")).toBe("error");
  });

  it("shows in the registry with the call's system, operation and outcome", async () => {
    const metrics = createMetrics();
    const measured = measuredCalls(metrics, "bss", adapter(), ["findLine"]);
    await measured.findLine("5512345678");
    expect(
      await sample(
        metrics,
        'storefront_outside_call_duration_seconds_count{system="bss",operation="findLine",outcome="ok"}',
      ),
    ).toBe(1);
  });
});

describe("values read at scrape time", () => {
  it("reads each source once per scrape, whatever the gauges it feeds", async () => {
    const metrics = createMetrics();
    let mailReads = 0;
    let paymentReads = 0;
    metrics.watch({
      mailQueue: async () => {
        mailReads++;
        return { pending: 3, failed: 1, oldestPendingSeconds: 42 };
      },
      pendingPayments: async () => {
        paymentReads++;
        return [
          { method: "cash", pending: 5, pastExpiry: 2 },
          { method: "card", pending: 1, pastExpiry: 0 },
        ];
      },
      databasePool: () => ({ engine: "postgres", inUse: 4, waiting: 1 }),
    });
    const text = await metrics.registry.metrics();
    expect(mailReads).toBe(1);
    expect(paymentReads).toBe(1);
    for (const line of [
      "storefront_mail_queue_pending 3",
      "storefront_mail_queue_failed 1",
      "storefront_mail_queue_oldest_pending_seconds 42",
      'storefront_payments_pending{method="cash"} 5',
      'storefront_payments_pending_past_expiry{method="cash"} 2',
      'storefront_payments_pending_past_expiry{method="card"} 0',
      'storefront_db_connections_in_use{engine="postgres"} 4',
      'storefront_db_connections_waiting{engine="postgres"} 1',
    ]) {
      expect(text).toContain(line);
    }
    await metrics.registry.metrics();
    expect(mailReads).toBe(2);
  });

  it("shows how much of the hourly SMS-code budget is used, beside the budget", async () => {
    const metrics = createMetrics();
    metrics.watch({ lineCodeBudget: async () => ({ sent: 812, budget: 1000 }) });
    const text = await metrics.registry.metrics();
    expect(text).toContain("storefront_line_codes_hour_sent 812");
    expect(text).toContain("storefront_line_codes_hour_budget 1000");
  });

  it("a source that fails leaves the scrape whole", async () => {
    const metrics = createMetrics();
    metrics.watch({
      mailQueue: async () => {
        throw new Error("database away");
      },
      readiness: async () => ({ database: false, identity: true }),
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('storefront_readiness_check{check="database"} 0');
    expect(text).toContain('storefront_readiness_check{check="identity"} 1');
  });
});

describe("payments and limits", () => {
  it("counts payments by method and state, and refusals by limiter", async () => {
    const metrics = createMetrics();
    metrics.payment("cash", "pending");
    metrics.payment("cash", "expired");
    metrics.payment("cash", "pending");
    metrics.rateLimitRefused("topup-line:5512345678:203.0.113.7");
    expect(await sample(metrics, 'storefront_payments_total{method="cash",state="pending"}')).toBe(
      2,
    );
    expect(
      await sample(metrics, 'storefront_rate_limit_refusals_total{limiter="topup-line"}'),
    ).toBe(1);
    expect(await metrics.registry.metrics()).not.toContain("5512345678");
  });
});

describe("storefront_build_info (decision 0143)", () => {
  it("is 1, labelled with the build's version, commit and Node", async () => {
    const metrics = createMetrics();
    metrics.buildInfo({ version: "a1b2c3d4", commit: "0123abcd", node: "v24.21.0" });
    expect(
      await sample(
        metrics,
        'storefront_build_info{version="a1b2c3d4",commit="0123abcd",node="v24.21.0"}',
      ),
    ).toBe(1);
    // Told again (a rebuild under npm run dev), it names the new build only.
    metrics.buildInfo({ version: "e5f6", commit: "unknown", node: "v24.21.0" });
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('version="a1b2c3d4"');
    expect(text).toContain(
      'storefront_build_info{version="e5f6",commit="unknown",node="v24.21.0"} 1',
    );
  });
});
