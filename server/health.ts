import type express from "express";
import type { Config } from "~/config.server";
import type { Services } from "~/context";

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

/**
 * GET /build-version: the build this process serves, which an open tab compares with its own
 * (decision 0108). Never kept by a cache: the answer changes with a deploy at the same address.
 */
export function buildVersion(version: string): express.RequestHandler {
  return (_req, res) => {
    res.set("Cache-Control", "no-store").json({ version });
  };
}

/** GET /readyz: every dependency answers within READINESS_TIMEOUT_MS (503 and which one otherwise). */
export function readyz(
  services: Pick<Services, "readinessChecks" | "mailer" | "lineJobs">,
  config: Pick<Config, "testDoubles" | "isTestEnvironment">,
  workerIndex: number | null,
): express.RequestHandler {
  return async (_req, res) => {
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(services.readinessChecks).map(async ([name, check]) => {
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) =>
              setTimeout(() => reject(new Error("timeout")), READINESS_TIMEOUT_MS),
            ),
          ]);
          results[name] = "ok";
        } catch (error) {
          ready = false;
          results[name] = error instanceof Error ? error.message : "error";
        }
      }),
    );
    res
      .status(ready ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status: ready ? "ready" : "unavailable",
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
      });
  };
}
