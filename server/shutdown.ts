import type { Server } from "node:http";
import type { Logger } from "pino";
import type { Services } from "~/context";
import { STOP_MESSAGE, type ClusterRole } from "./cluster.server";

/** How long in-flight requests may take to finish after SIGTERM. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** How long closing the database and the identity emulator may take after that. */
export const CLOSE_GRACE_MS = 5_000;

/**
 * SIGTERM or SIGINT (or, for a worker, its primary's stop or its primary gone): stop accepting
 * connections, let in-flight requests finish, close the services, exit 0; whatever hangs, the
 * process ends SHUTDOWN_GRACE_MS + CLOSE_GRACE_MS after the signal (exit 1). A second signal exits
 * at once (decision 0061).
 */
export function shutDownGracefully(options: {
  server: Server;
  services: Pick<Services, "closers">;
  logger: Logger;
  role: ClusterRole;
}) {
  const { server, services, logger, role } = options;
  let shuttingDown = false;
  function shutdown(signal: string) {
    if (shuttingDown) {
      // A second signal: the operator wants it gone now.
      logger.warn({ msg: "second signal: exiting at once", signal });
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ msg: "shutting down", signal });
    // Whatever hangs (a request, a closer), the process ends by then.
    setTimeout(() => {
      logger.error({ msg: "shutdown did not finish in time; exiting" });
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + CLOSE_GRACE_MS).unref();
    const forced = setTimeout(() => {
      logger.warn({ msg: "in-flight requests did not finish in time; closing connections" });
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    server.close(async () => {
      clearTimeout(forced);
      for (const close of services.closers) {
        try {
          await close();
        } catch (error) {
          logger.error({ err: error, msg: "error while closing a resource" });
        }
      }
      logger.info({ msg: "stopped" });
      process.exit(0);
    });
    server.closeIdleConnections();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  if (role.kind === "worker") {
    // The primary's stop, or the primary gone (killed): the same graceful shutdown, once.
    process.on("message", (message: { type?: unknown } | null) => {
      if (message?.type === STOP_MESSAGE && !shuttingDown) shutdown("primary stop");
    });
    process.on("disconnect", () => {
      if (!shuttingDown) shutdown("primary gone");
    });
  }
}
