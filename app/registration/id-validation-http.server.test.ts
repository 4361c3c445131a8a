import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type IdValidationRequest,
  type IdValidationUnavailable,
  isIdValidationUnavailable,
} from "./id-validation";
import { createHttpIdValidator } from "./id-validation-http.server";

const API_KEY = "clave-de-prueba-4f1c9a7e2b";
const CURP = "AAPR630321HDFLRC09";
const NAME = "Ricardo Alamán Pérez";

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/**
 * A local stand-in for the operator's validation service, speaking our contract: it records
 * each request and answers as the test says.
 */
let server: Server;
let baseUrl: string;
let received: Received[];
let answer: (request: Received, response: ServerResponse) => void;
const hanging = new Set<ServerResponse>();

beforeEach(async () => {
  received = [];
  answer = (_request, response) => json(response, 200, valid);
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    request.on("end", () => {
      const record: Received = {
        method: request.method ?? "",
        path: request.url ?? "",
        authorization: request.headers.authorization,
        contentType: request.headers["content-type"],
        body: JSON.parse(raw || "null"),
      };
      received.push(record);
      answer(record, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterEach(async () => {
  for (const response of hanging) response.destroy();
  hanging.clear();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const valid = { resultado: "valida", referencia: "RNP-2026-000123", fuente: "RENAPO" };

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** Every line the adapter logged, as JSON objects and as the raw text. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = pino(
    { level: "debug" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    }),
  );
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line)) };
}

function validator(timeoutMs = 1_000) {
  const log = capturedLogger();
  return {
    log,
    idValidator: createHttpIdValidator({
      url: baseUrl,
      apiKey: API_KEY,
      timeoutMs,
      logger: log.logger,
    }),
  };
}

const fisica: IdValidationRequest = {
  kind: "fisica",
  fullName: NAME,
  curp: CURP,
  rfc: null,
  passportNumber: null,
  nationality: null,
};

async function unavailable(attempt: Promise<unknown>): Promise<IdValidationUnavailable> {
  const error = await attempt.then(
    () => null,
    (failed: unknown) => failed,
  );
  expect(isIdValidationUnavailable(error), String(error)).toBe(true);
  const failure = error as IdValidationUnavailable;
  for (const secret of [API_KEY, CURP, NAME]) expect(failure.message).not.toContain(secret);
  return failure;
}

/** Nothing personal, nor the key, in any log line. */
function expectNothingPersonal(lines: string[]) {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    for (const secret of [API_KEY, CURP, NAME, "Alam", "AAPR", "X12345678", "ABC010203XY"]) {
      expect(line).not.toContain(secret);
    }
  }
}

describe("the http identity validation, against a local stand-in", () => {
  it("posts the contract's body with the key as a bearer token, and reads a valid answer", async () => {
    const { idValidator, log } = validator();
    expect(idValidator.name).toBe("http");
    await expect(idValidator.validate(fisica)).resolves.toEqual({
      outcome: "valid",
      reference: "RNP-2026-000123",
      source: "RENAPO",
    });
    expect(received).toEqual([
      {
        method: "POST",
        path: "/v1/validations",
        authorization: `Bearer ${API_KEY}`,
        contentType: "application/json",
        body: { tipoPersona: "fisica", nombre: NAME, curp: CURP },
      },
    ]);
    const [entry] = log.entries();
    expect(entry).toMatchObject({
      msg: "identity validation",
      kind: "fisica",
      outcome: "valid",
      reference: "RNP-2026-000123",
      source: "RENAPO",
      status: 200,
    });
    expect(entry.ms).toBeTypeOf("number");
    expectNothingPersonal(log.lines);
  });

  it.each([
    ["no-encontrada", "not-found"],
    ["nombre-no-coincide", "name-mismatch"],
    ["persona-fallecida", "deceased"],
    ["documento-no-coincide", "document-mismatch"],
    ["selfie-no-viva", "selfie-not-live"],
  ])("reads %s as %s", async (resultado, outcome) => {
    answer = (_request, response) =>
      json(response, 200, { resultado, referencia: null, fuente: "RENAPO" });
    const { idValidator, log } = validator();
    await expect(idValidator.validate(fisica)).resolves.toEqual({
      outcome,
      reference: null,
      source: "RENAPO",
    });
    expect(log.entries()[0]).toMatchObject({ outcome, reference: null });
    expectNothingPersonal(log.lines);
  });

  it("sends online registration's document number and images (base64), and logs neither", async () => {
    const { idValidator, log } = validator();
    const idPhoto = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const selfie = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9]);
    await idValidator.validate({
      ...fisica,
      evidence: {
        document: "ine",
        documentNumber: "123456789",
        idPhoto: { type: "image/jpeg", bytes: idPhoto },
        selfie: { type: "image/png", bytes: selfie },
      },
    });
    expect(received[0].body).toEqual({
      tipoPersona: "fisica",
      nombre: NAME,
      curp: CURP,
      documento: {
        tipo: "ine",
        numero: "123456789",
        foto: { tipo: "image/jpeg", base64: Buffer.from(idPhoto).toString("base64") },
        selfie: { tipo: "image/png", base64: Buffer.from(selfie).toString("base64") },
      },
    });
    expectNothingPersonal(log.lines);
    for (const line of log.lines) {
      expect(line).not.toContain("123456789");
      expect(line).not.toContain(Buffer.from(idPhoto).toString("base64"));
    }
  });

  it("sends a foreigner's passport and nationality, and a company's RFC and representative's CURP", async () => {
    const { idValidator } = validator();
    await idValidator.validate({
      kind: "extranjera",
      fullName: "John Smith",
      curp: null,
      rfc: null,
      passportNumber: "X12345678",
      nationality: "US",
    });
    await idValidator.validate({
      kind: "moral",
      fullName: "Abarrotes del Centro, S.A. de C.V.",
      curp: CURP,
      rfc: "ABC010203XY5",
      passportNumber: null,
      nationality: null,
    });
    expect(received.map((request) => request.body)).toEqual([
      {
        tipoPersona: "extranjera",
        nombre: "John Smith",
        pasaporte: "X12345678",
        nacionalidad: "US",
      },
      {
        tipoPersona: "moral",
        nombre: "Abarrotes del Centro, S.A. de C.V.",
        rfc: "ABC010203XY5",
        curpRepresentante: CURP,
      },
    ]);
  });

  it("is unavailable when the service fails (500), and says so in the log without the person", async () => {
    answer = (_request, response) => json(response, 500, { error: `fallo con ${CURP}` });
    const { idValidator, log } = validator();
    const error = await unavailable(idValidator.validate(fisica));
    expect(error.reason).toBe("http-status");
    expect(error.httpStatus).toBe(500);
    expect(log.entries()[0]).toMatchObject({
      level: 40,
      msg: "identity validation unavailable",
      reason: "http-status",
      status: 500,
    });
    expectNothingPersonal(log.lines);
  });

  it("is unavailable when the service does not answer in time", async () => {
    answer = (_request, response) => hanging.add(response);
    const { idValidator, log } = validator(200);
    const started = Date.now();
    const error = await unavailable(idValidator.validate(fisica));
    expect(error.reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(log.entries()[0]).toMatchObject({ reason: "timeout", status: null });
    expectNothingPersonal(log.lines);
  });

  it("is unavailable when the service cannot be reached", async () => {
    const log = capturedLogger();
    const idValidator = createHttpIdValidator({
      url: "http://127.0.0.1:1",
      apiKey: API_KEY,
      timeoutMs: 1_000,
      logger: log.logger,
    });
    expect((await unavailable(idValidator.validate(fisica))).reason).toBe("unreachable");
  });

  it.each([
    ["not JSON", "<html>Bad gateway</html>"],
    ["an unknown resultado", { resultado: "quizas", referencia: "R-1", fuente: "RENAPO" }],
    ["no fuente", { resultado: "valida", referencia: "R-1" }],
    ["a reference with a control character", { ...valid, referencia: "R-1\u001b[2J" }],
    ["a list", [valid]],
  ])("is unavailable, logged as an error, on an answer with %s", async (_what, body) => {
    answer = (_request, response) => json(response, 200, body);
    const { idValidator, log } = validator();
    const error = await unavailable(idValidator.validate(fisica));
    expect(error.reason).toBe("malformed");
    expect(log.entries()[0]).toMatchObject({ level: 50, reason: "malformed" });
    expectNothingPersonal(log.lines);
  });

  it("is unavailable on a 4xx, our request or key being wrong: the customer's attempt is not counted", async () => {
    answer = (_request, response) => json(response, 401, { error: "clave inválida" });
    const { idValidator, log } = validator();
    expect((await unavailable(idValidator.validate(fisica))).reason).toBe("unauthorized");
    answer = (_request, response) => json(response, 422, { error: `CURP ${CURP} inválida` });
    const error = await unavailable(idValidator.validate(fisica));
    expect(error).toMatchObject({ reason: "http-status", httpStatus: 422 });
    expect(log.entries().map((entry) => entry.level)).toEqual([50, 50]);
    expectNothingPersonal(log.lines);
  });

  it("follows no redirect, so that the key goes nowhere else", async () => {
    answer = (_request, response) => {
      response.writeHead(307, { location: new URL("/otra-parte", baseUrl).href });
      response.end();
    };
    const { idValidator } = validator();
    expect((await unavailable(idValidator.validate(fisica))).reason).toBe("unreachable");
    expect(received).toHaveLength(1);
  });

  it("refuses a plain-http address other than loopback", () => {
    const { logger } = capturedLogger();
    expect(() =>
      createHttpIdValidator({
        url: "http://validacion.operador.mx",
        apiKey: API_KEY,
        timeoutMs: 1_000,
        logger,
      }),
    ).toThrow(/https/);
  });
});
