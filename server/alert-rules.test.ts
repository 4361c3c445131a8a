import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ALERT_RULES_FILE, metricNamesOfRules } from "../tests/support/alert-rules";

// README's "what to alert on" as Prometheus rules (decision 0143): promtool (Debian's prometheus
// package, installed by scripts/ensure-promtool.sh in `npm test`'s pre-step) must accept them.
// tests/e2e/metrics.spec.ts checks the metrics they name against a real /metrics.

describe("deploy/prometheus/alerts.yml", () => {
  it("passes promtool check rules", () => {
    const run = spawnSync("promtool", ["check", "rules", ALERT_RULES_FILE], { encoding: "utf8" });
    expect(run.error, "promtool missing: bash scripts/ensure-promtool.sh").toBeUndefined();
    expect(`${run.stdout}${run.stderr}`).toContain("SUCCESS");
    expect(run.status).toBe(0);
  });

  it("names the metrics its expressions read (histogram series as their metric)", () => {
    expect(metricNamesOfRules()).toEqual([
      "process_resident_memory_bytes",
      "storefront_db_connections_waiting",
      "storefront_db_timeouts_total",
      "storefront_http_request_duration_seconds",
      "storefront_line_codes_hour_budget",
      "storefront_line_codes_hour_sent",
      "storefront_line_jobs_failed",
      "storefront_mail_queue_failed",
      "storefront_mail_queue_oldest_pending_seconds",
      "storefront_payments_pending_past_expiry",
      "storefront_readiness_check",
    ]);
  });
});
