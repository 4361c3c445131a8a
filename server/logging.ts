import { destination, pino, type Logger } from "pino";
import type { Config } from "~/config.server";
import { logBase, type ClusterRole } from "./cluster.server";

/**
 * One JSON line per event on stdout. Synchronous writes with no flush at exit: pino's exit-time
 * flush retries a write to a closed pipe for ever (the parent that read our output is gone), which
 * kept the process alive after SIGTERM. A write stdout cannot take now (a full pipe) fails instead
 * of waiting; the lines wait in a bounded buffer, and past it are dropped: logging never stalls the
 * server or its shutdown.
 */
export function createLogger(config: Pick<Config, "LOG_LEVEL">, role: ClusterRole): Logger {
  const logDestination = destination({
    dest: 1,
    sync: true,
    maxLength: 4 * 1024 * 1024,
    retryEAGAIN: () => false,
  });
  logDestination.on("error", () => {
    // A closed or full stdout: pino already stops writing to a closed one.
  });
  // Opening stdout as a stream makes a pipe non-blocking, so a full one answers EAGAIN at once.
  void process.stdout.writable;
  return pino(
    {
      level: config.LOG_LEVEL,
      // Clustered, each line names its process: `worker` 0 is the primary, 1…N the workers.
      base: logBase(role) ?? undefined,
      // Belt and braces: request logs never carry these, but a careless log call must not either.
      redact: {
        paths: ["password", "*.password", "token", "*.token", "cookie", "*.cookie", "nip", "*.nip"],
        censor: "[oculto]",
      },
    },
    logDestination,
  );
}
