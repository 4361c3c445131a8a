import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A plain HTTP/1.1 request to a server on this machine, with headers of our choosing (fetch will
 * not let us set Host). `form` is sent urlencoded. `ownConnection`: a connection of its own that
 * closes after the answer — node:cluster hands each new connection to the next worker, so such
 * requests are spread over all of them.
 */
export function rawRequest(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
    form?: Record<string, string>;
    ownConnection?: boolean;
  },
): Promise<RawAnswer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : options.body;
  const headers: Record<string, string | number> = {
    ...(options.form
      ? {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body ?? ""),
        }
      : {}),
    ...(options.ownConnection ? { Connection: "close" } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? (options.form ? "POST" : "GET"),
        path: options.path,
        headers,
        ...(options.ownConnection ? { agent: false } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A cookie jar for rawRequest: what the server sets, sent back. */
export class CookieJar {
  private cookies = new Map<string, string>();
  keep(headers: IncomingHttpHeaders) {
    for (const line of headers["set-cookie"] ?? []) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      if (/Max-Age=0/i.test(line)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
