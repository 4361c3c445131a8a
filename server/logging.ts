import { destination, pino, stdSerializers, type Logger } from "pino";
import type { Config } from "~/config.server";
import { redactSecrets } from "~/observability/redact.server";
import { logBase, type ClusterRole } from "./cluster.server";

const ERRORS_AS_PINO_WRITES_THEM = { serializeError: stdSerializers.err };

/** Errors as pino writes them (type, message, stack, causes), then without their secrets. */
const redactedError = (error: unknown) => redactSecrets(stdSerializers.err(error as Error));

/**
 * What every log line goes through: the value of any key that may hold a secret or a customer's
 * address (`email`, `authorization`, `*token*`, `*key*`, `DATABASE_URL`, `nip`, `curp`…) is
 * replaced, at any depth (decision 0111). Request logs never carry these; a careless log call, or
 * an error with a library's request on it, must not either.
 */
export const logRedaction = {
  formatters: {
    log: (object: Record<string, unknown>) => {
      if (object.err === undefined) return redactSecrets(object, ERRORS_AS_PINO_WRITES_THEM);
      // `err` is left to its serializer below, which pino applies after this.
      const { err, ...rest } = object;
      return { ...redactSecrets(rest, ERRORS_AS_PINO_WRITES_THEM), err };
    },
  },
  serializers: { err: redactedError },
};

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
      ...logRedaction,
    },
    logDestination,
  );
}
