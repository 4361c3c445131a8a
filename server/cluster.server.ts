import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";
import { startEmbeddedIdentity, type EmbeddedIdentity } from "~/auth/identity.server";
import { Outbox, type OutboxEntry } from "~/auth/emulator/outbox.server";
import type { CognitoTarget } from "~/auth/cognito.server";
import type { Config } from "~/config.server";
import { prepareSharedStores, type ProcessRole } from "~/services.server";
import { closeMetricsServer, listenForMetrics, primaryMetrics } from "./metrics";

/**
 * WEB_CONCURRENCY > 1: one primary process forks that many workers that share the port
 * (node:cluster), decision 0075. The primary serves no requests: it prepares the database once,
 * runs the embedded identity emulator once, and watches its workers. WEB_CONCURRENCY=1 is the
 * single process of before, without any of this.
 */

/** Which worker this is (1…N), kept by a replacement: worker 1 runs the once-per-site timers. */
const WORKER_INDEX_ENV = "STOREFRONT_WORKER_INDEX";
/** The primary's emulator (its address, pool and hosted stand-in), as JSON. */
const EMBEDDED_IDENTITY_ENV = "STOREFRONT_EMBEDDED_IDENTITY";
const OUTBOX_MESSAGE = "identity-outbox";
/** The primary asks a worker to stop (a message, not a signal: Ctrl-C already signals both). */
export const STOP_MESSAGE = "stop";

export type ClusterRole =
  { kind: "single" } | { kind: "primary"; workers: number } | { kind: "worker"; index: number };

export function clusterRole(concurrency: number): ClusterRole {
  if (cluster.isWorker) return { kind: "worker", index: Number(process.env[WORKER_INDEX_ENV]) };
  return concurrency > 1 ? { kind: "primary", workers: concurrency } : { kind: "single" };
}

/** The pino base fields: every line of a cluster says which process wrote it (0 = primary). */
export function logBase(role: ClusterRole): { worker: number } | undefined {
  if (role.kind === "single") return undefined;
  return { worker: role.kind === "primary" ? 0 : role.index };
}

interface HandedOverIdentity {
  target: CognitoTarget;
  hostedOrigin: string | null;
}

/** What this process's services are told about the cluster it belongs to. */
export function processRole(role: ClusterRole): ProcessRole {
  if (role.kind !== "worker") return {};
  const handedOver = process.env[EMBEDDED_IDENTITY_ENV];
  return {
    runsSweeps: role.index === 1,
    embeddedIdentity: handedOver ? relayedIdentity(JSON.parse(handedOver)) : undefined,
  };
}

/** The primary's emulator, reached over loopback; its codes arrive as messages. */
function relayedIdentity(handedOver: HandedOverIdentity): EmbeddedIdentity {
  const outbox = new Outbox();
  process.on("message", (message: { type?: unknown; entry?: OutboxEntry } | null) => {
    if (message?.type !== OUTBOX_MESSAGE || !message.entry) return;
    const { to, medium, purpose, code } = message.entry;
    outbox.add({ to, medium, purpose, code });
  });
  return {
    emulator: Promise.resolve({ ...handedOver, close: async () => {} }),
    outbox,
  };
}

/**
 * The primary's life: prepare, start the emulator, fork, replace a worker that dies, and on
 * SIGTERM or SIGINT stop the workers (each finishes its requests, as a single process does) and
 * then the emulator. It never resolves: the primary ends through process.exit.
 */
export async function runPrimary(options: {
  config: Config;
  logger: Logger;
  workers: number;
  /** How long the workers may take to stop before the primary gives up on them. */
  stopGraceMs: number;
}): Promise<never> {
  const { config, logger, workers } = options;
  // Migrations and the rate limit table, once, before any worker opens the database.
  await prepareSharedStores(config, logger);

  let identity: EmbeddedIdentity | null = null;
  let handedOver: HandedOverIdentity | null = null;
  if (config.identityMode === "embedded") {
    // Once for the site: its users live in one file, which one process must own. Codes it
    // "sends" are relayed to every worker's outbox (the development /dev/outbox page).
    const relay = (entry: OutboxEntry) => {
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (worker?.isConnected()) worker.send({ type: OUTBOX_MESSAGE, entry });
      }
    };
    identity = startEmbeddedIdentity(config, logger, new Outbox(relay));
    const started = await identity.emulator;
    handedOver = { target: started.target, hostedOrigin: started.hostedOrigin };
  }

  // One scrape, every worker (decision 0110): the primary adds up their registries, for a worker
  // scraped on the public port and on METRICS_PORT, which the primary serves itself.
  const metricsText = config.metrics.serve === "off" ? null : primaryMetrics();
  const metricsServer =
    metricsText && config.metrics.serve === "port"
      ? listenForMetrics({ ...config.metrics, text: metricsText, logger })
      : null;

  const indexOf = new Map<Worker, number>();
  const served = new WeakSet<Worker>();
  let stopping = false;

  function fork(index: number) {
    const worker = cluster.fork({
      [WORKER_INDEX_ENV]: String(index),
      ...(handedOver ? { [EMBEDDED_IDENTITY_ENV]: JSON.stringify(handedOver) } : {}),
    });
    indexOf.set(worker, index);
    worker.on("listening", () => served.add(worker));
  }

  async function stop(signal: string, code: number) {
    if (stopping) {
      // A second signal: the operator wants it gone now.
      logger.warn({ msg: "second signal: stopping the workers at once", signal });
      for (const worker of indexOf.keys()) worker.process.kill("SIGKILL");
      process.exit(1);
    }
    stopping = true;
    logger.info({ msg: "shutting down the workers", signal, workers: indexOf.size });
    setTimeout(() => {
      logger.error({ msg: "workers did not stop in time; exiting" });
      for (const worker of indexOf.keys()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, options.stopGraceMs).unref();
    // Each worker runs its own graceful shutdown (server.ts): no new connections, in-flight
    // requests finished, its resources closed.
    for (const worker of indexOf.keys()) {
      if (worker.isConnected()) worker.send({ type: STOP_MESSAGE });
    }
    await Promise.all(
      [...indexOf.keys()].map(
        (worker) =>
          new Promise((resolve) =>
            worker.isDead() ? resolve(null) : worker.once("exit", resolve),
          ),
      ),
    );
    await (await identity?.emulator.catch(() => null))?.close();
    if (metricsServer) await closeMetricsServer(metricsServer);
    logger.info({ msg: "stopped" });
    process.exit(code);
  }

  cluster.on("exit", (worker, exitCode, signal) => {
    const index = indexOf.get(worker) ?? 0;
    indexOf.delete(worker);
    if (stopping) return;
    if (!served.has(worker)) {
      // It never served: a start that fails (configuration, database) fails the same way again.
      logger.error({
        msg: "a worker failed to start; stopping",
        workerIndex: index,
        exitCode,
        signal,
      });
      void stop("worker failed to start", 1);
      return;
    }
    logger.error({
      msg: "a worker died; starting a replacement",
      workerIndex: index,
      exitCode,
      signal,
    });
    fork(index);
  });
  process.on("SIGTERM", () => void stop("SIGTERM", 0));
  process.on("SIGINT", () => void stop("SIGINT", 0));

  for (let index = 1; index <= workers; index++) fork(index);
  logger.info({
    msg: "cluster started",
    workers,
    identity: handedOver ? "embedded emulator in the primary" : config.identityMode,
  });
  return new Promise<never>(() => {});
}
