import type express from "express";
import type { Config } from "~/config.server";
import { autoTopupStats } from "~/auto-topup/scheduler.server";
import type { Services } from "~/context";
import { carriesToken } from "./metrics";

const READINESS_TIMEOUT_MS = 2_000;

/** This process's number in the health answers, when clustered. */
function workerField(workerIndex: number | null) {
  return workerIndex === null ? {} : { worker: workerIndex };
}

/** GET /healthz: the process is alive. */
export function healthz(workerIndex: number | null): express.RequestHandler {
  return (_req, res) => {
    res.set("Cache-Control", "no-store").json({
      status: "ok",
      uptimeSeconds: Math.round(process.uptime()),
      ...workerField(workerIndex),
    });
  };
}

async function autoTopupReadiness(services: Pick<Services, "db" | "autoTopups">) {
  const scheduler = services.autoTopups.scheduler;
  const stats = await autoTopupStats(services.db).catch(() => null);
  return {
    schedulerHere: scheduler !== null,
    ...(scheduler ? scheduler.status() : {}),
    ...(stats ?? { unknown: true }),
  };
}

/**
 * GET /build-version: the build this process serves, which an open tab compares with its own
 * (decision 0108). Never kept by a cache: the answer changes with a deploy at the same address.
 */
export function buildVersion(version: string): express.RequestHandler {
  return (_req, res) => {
    res.set("Cache-Control", "no-store").json({ version });
  };
}

/**
 * Runs every readiness check, each within READINESS_TIMEOUT_MS: "ok", or why not. Shared by
 * /readyz and the `storefront_readiness_check` metric.
 */
export async function readinessResults(
  checks: Services["readinessChecks"],
): Promise<Record<string, string>> {
  const results: Record<string, string> = {};
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error("timeout")), READINESS_TIMEOUT_MS);
          }),
        ]);
        results[name] = "ok";
      } catch (error) {
        results[name] = error instanceof Error ? error.message : "error";
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return results;
}

/**
 * Who may read /readyz's detail (queues, failures, automatic top-ups, test doubles): whoever sends
 * METRICS_TOKEN, as /metrics asks. Outside production without a token, anyone (as /metrics); in
 * production without one, nobody: the public learns only up or down.
 */
export function readsReadinessDetail(
  config: Pick<Config, "isProduction" | "metrics">,
  authorization: string | undefined,
): boolean {
  const token = config.metrics.serve === "off" ? null : config.metrics.token;
  if (token === null) return !config.isProduction;
  return carriesToken(token, authorization);
}

/**
 * GET /readyz: every dependency answers within READINESS_TIMEOUT_MS (503 otherwise). The status
 * alone to the public; which check failed and the queues behind METRICS_TOKEN.
 */
export function readyz(
  services: Pick<Services, "readinessChecks" | "mailer" | "lineJobs" | "db" | "autoTopups">,
  config: Pick<Config, "testDoubles" | "isTestEnvironment" | "isProduction" | "metrics">,
  workerIndex: number | null,
): express.RequestHandler {
  return async (req, res) => {
    const results = await readinessResults(services.readinessChecks);
    const ready = Object.values(results).every((result) => result === "ok");
    const status = ready ? "ready" : "unavailable";
    res.status(ready ? 200 : 503).set("Cache-Control", "no-store");
    if (!readsReadinessDetail(config, req.get("authorization"))) {
      res.json({ status });
      return;
    }
    res.json({
      status,
      ...workerField(workerIndex),
      checks: results,
      // Stand-ins for real services: a production server runs on them only by the operator's choice.
      testDoubles: config.testDoubles,
      testEnvironment: config.isTestEnvironment,
      // Delayed e-mails do not make the store unready: customers can still buy. Unknown (null)
      // while the database does not answer, which the database check already reports.
      mail: await services.mailer.stats().catch(() => null),
      // Top-ups waiting for the BSS, and those it refused (for the operator): the same.
      lineJobs: await services.lineJobs.stats().catch(() => null),
      // Automatic top-ups (decision 0121): whether this process schedules them and its last
      // round; what is due or waiting for a customer, whichever process charges it.
      autoTopups: await autoTopupReadiness(services),
    });
  };
}
