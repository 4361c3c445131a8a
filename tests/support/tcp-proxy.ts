import net from "node:net";

/**
 * A TCP proxy in front of a server (PostgreSQL in the outage tests), on a port of its own on
 * 127.0.0.1. `cut` is the server going away: the listener closes and every open connection is
 * dropped; `restore` listens again on the same port. `latencyMs` delays everything it carries,
 * each way, as a database on another machine would be.
 */
export function tcpProxy(target: { host: string; port: number }, { latencyMs = 0 } = {}) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on("close", () => sockets.delete(socket));
    }
    if (latencyMs === 0) {
      client.pipe(upstream).pipe(client);
      return;
    }
    // Timers of one duration fire in the order they were set: the bytes keep their order.
    const carry = (from: net.Socket, to: net.Socket) => {
      from.on("data", (chunk) => setTimeout(() => to.writable && to.write(chunk), latencyMs));
      from.on("end", () => setTimeout(() => to.end(), latencyMs));
    };
    carry(client, upstream);
    carry(upstream, client);
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  return {
    get port() {
      return port;
    },
    start: listen,
    restore: listen,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** `url` (a postgres:// URL) reached through `proxy` instead. */
export function throughProxy(url: string, proxy: { port: number }): string {
  const proxied = new URL(url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  return proxied.toString();
}
