import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/**
 * A local stand-in for an error tracker that takes Sentry's envelopes (decision 0111): it listens
 * on loopback, accepts `POST /api/<project>/envelope/` as Sentry's ingestion does, and keeps each
 * envelope raw and parsed (the header line, then each item's header and payload). The DSN to give
 * the store is `dsn`.
 */
export interface ReceivedEnvelope {
  path: string;
  /** The body exactly as it arrived (for "this text never appears anywhere" checks). */
  raw: string;
  header: Record<string, unknown>;
  items: Array<{ header: Record<string, unknown>; payload: unknown }>;
}

export interface ErrorTrackerStandIn {
  dsn: string;
  envelopes: ReceivedEnvelope[];
  /** The error events received so far (items of type "event"). */
  events(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export const STAND_IN_PROJECT = "4242";
export const STAND_IN_KEY = "publickey0123456789";

export function parseEnvelope(raw: string): Omit<ReceivedEnvelope, "path" | "raw"> {
  const lines = raw.split("\n");
  const header = JSON.parse(lines.shift() ?? "{}") as Record<string, unknown>;
  const items: ReceivedEnvelope["items"] = [];
  while (lines.length > 0) {
    const itemHeaderLine = lines.shift()!;
    if (itemHeaderLine.trim() === "") continue;
    const itemHeader = JSON.parse(itemHeaderLine) as Record<string, unknown>;
    const payloadLine = lines.shift() ?? "";
    let payload: unknown = payloadLine;
    try {
      payload = JSON.parse(payloadLine);
    } catch {
      // An attachment or another item that is not JSON: kept as text.
    }
    items.push({ header: itemHeader, payload });
  }
  return { header, items };
}

export async function startErrorTrackerStandIn(): Promise<ErrorTrackerStandIn> {
  const envelopes: ReceivedEnvelope[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0]!;
      if (req.method !== "POST" || path !== `/api/${STAND_IN_PROJECT}/envelope/`) {
        res.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      const raw = body.toString("utf8");
      envelopes.push({ path, raw, ...parseEnvelope(raw) });
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://${STAND_IN_KEY}@127.0.0.1:${port}/${STAND_IN_PROJECT}`,
    envelopes,
    events: () =>
      envelopes.flatMap((envelope) =>
        envelope.items
          .filter((item) => item.header.type === "event")
          .map((item) => item.payload as Record<string, unknown>),
      ),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
