import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logRedaction } from "./logging";

/** A logger with the server's redaction, writing its lines to an array. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: "info", ...logRedaction }, stream);
  return {
    logger,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("the log's redaction", () => {
  it("hides secrets and addresses at any depth, in objects and arrays", () => {
    const { logger, entries } = capturingLogger();
    logger.info({
      msg: "careless",
      requestId: "r-1",
      customer: { name: "Ana", email: "ana@example.com", contact: [{ telefono: "5512345678" }] },
      upstream: {
        request: { headers: { Authorization: "Bearer abc", Cookie: "__Host-session=x" } },
      },
      config: { DATABASE_URL: "postgres://u:p@h/db", BSS_CLIENT_SECRET: "s", PORT: 3000 },
      holder: { curp: "GOMC800101HDFRRL09", rfc: "GOMC800101AB1", nip: "1234" },
      tokens: { accessToken: "eyJ.a.b", deep: { deeper: { refresh_token: "r", apiKey: "k" } } },
    });
    const [entry] = entries();
    const text = JSON.stringify(entry);
    for (const secret of [
      "ana@example.com",
      "5512345678",
      "Bearer abc",
      "__Host-session",
      "postgres://",
      "GOMC800101",
      '"1234"',
      "eyJ.a.b",
      '"r"',
      '"k"',
      '"s"',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(entry).toMatchObject({
      msg: "careless",
      requestId: "r-1",
      customer: { name: "Ana", email: "[oculto]", contact: [{ telefono: "[oculto]" }] },
      config: { PORT: 3000 },
    });
  });

  it("writes an error as pino does (type, message, stack), without the secrets on it", () => {
    const { logger, entries } = capturingLogger();
    const error = Object.assign(new Error("upstream refused"), {
      code: "E_UPSTREAM",
      config: { headers: { authorization: "Basic dXNlcjpwYXNz" } },
      response: { data: { email: "ana@example.com" } },
    });
    logger.error({ err: error, requestId: "r-2" }, "unhandled server error");
    logger.warn({ msg: "nested error", detail: { error } });
    const [first, second] = entries();
    expect(first).toMatchObject({
      msg: "unhandled server error",
      requestId: "r-2",
      err: {
        type: "Error",
        message: "upstream refused",
        code: "E_UPSTREAM",
        config: { headers: { authorization: "[oculto]" } },
        response: { data: { email: "[oculto]" } },
      },
    });
    expect((first!.err as { stack: string }).stack).toContain("upstream refused");
    expect(second).toMatchObject({
      detail: {
        error: { message: "upstream refused", config: { headers: { authorization: "[oculto]" } } },
      },
    });
    expect(JSON.stringify(entries())).not.toMatch(/dXNlcjpwYXNz|ana@example\.com/);
  });

  it("leaves the request log as it is", () => {
    const { logger, entries } = capturingLogger();
    const line = {
      msg: "request",
      requestId: "r-3",
      method: "GET",
      path: "/plans",
      status: 200,
      durationMs: 1.5,
    };
    logger.info(line);
    expect(entries()[0]).toMatchObject(line);
  });
});
