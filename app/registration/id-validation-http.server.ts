import type { Logger } from "pino";
import * as z from "zod";
import { hasControlCharacters } from "~/lib/control-characters";
import {
  type IdImage,
  type IdValidationOutcome,
  type IdValidationRequest,
  type IdValidationResult,
  IdValidationUnavailable,
  type IdValidator,
  isIdValidationUnavailable,
} from "./id-validation";

/**
 * The operator's identity validation service over HTTP (ID_VALIDATION_PROVIDER=http, decision
 * 0096). There is no public standard for it: this is OUR contract, which the operator's service
 * (or an adapter in front of RENAPO's and SAT's) implements:
 *
 *   POST {ID_VALIDATION_URL}/validations
 *   Authorization: Bearer {ID_VALIDATION_API_KEY}
 *   Content-Type: application/json
 *   { "tipoPersona": "fisica" | "extranjera" | "moral", "nombre": "…",
 *     "curp"?: "…", "pasaporte"?: "…", "nacionalidad"?: "US", "rfc"?: "…",
 *     "curpRepresentante"?: "…",
 *     "documento"?: { "tipo": "ine" | "pasaporte" | "pasaporte-extranjero", "numero": "…",
 *                     "foto": { "tipo": "image/jpeg", "base64": "…" },
 *                     "selfie": { "tipo": "image/jpeg", "base64": "…" } } }
 *
 *   200 { "resultado": "valida" | "no-encontrada" | "nombre-no-coincide" | "persona-fallecida"
 *                      | "documento-no-coincide" | "selfie-no-viva",
 *         "referencia": "…" | null, "fuente": "RENAPO" | "SAT" | … }
 *
 * "documento" goes with online registration only (decision 0136): the identification's own number
 * (the INE's CIC, the passport's), its photo and a selfie for the liveness and face check, each
 * image at most 5 MB before base64. They are in memory for this one call: never logged, never
 * kept.
 *
 * Anything else (no answer in time, a broken connection, any other status, an answer that does
 * not read as the above) is IdValidationUnavailable: the service did not say who the person is,
 * so the customer's attempt is not counted as failed and a new line stays "pendiente de
 * registro". A 4xx means our request or key is wrong, which only the operator can fix: it is
 * logged as an error. One call, no retry: the customer is waiting on the form.
 *
 * The log gets the outcome, the service's reference and source, the status and the time taken;
 * never the name, CURP, RFC or passport, nor the answer's body (a service may echo them).
 */
export interface HttpIdValidatorOptions {
  /** The service's base address: https, plain http on loopback only (tests). */
  url: string;
  /** Sent as a bearer token; never logged, never in an error message. */
  apiKey: string;
  /** The whole call, until the answer's body has arrived. */
  timeoutMs: number;
  logger: Logger;
  /** Stands in for the built-in fetch (tests). */
  fetch?: typeof fetch;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The most of an answer read: the contract's is a few hundred bytes. */
const MAX_ANSWER_BYTES = 16 * 1024;

const RESULTADOS: Record<string, IdValidationOutcome> = {
  valida: "valid",
  "no-encontrada": "not-found",
  "nombre-no-coincide": "name-mismatch",
  "persona-fallecida": "deceased",
  "documento-no-coincide": "document-mismatch",
  "selfie-no-viva": "selfie-not-live",
};

/** A short printable text: a reference or a source the store keeps and shows the operator. */
const printable = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !hasControlCharacters(value));

const answerSchema = z.object({
  resultado: z.enum(Object.keys(RESULTADOS) as [string, ...string[]]),
  referencia: printable(100).nullable(),
  fuente: printable(40),
});

function validatedBaseUrl(value: string): string {
  const url = new URL(value);
  const plainLoopback = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !plainLoopback) {
    throw new TypeError("the identity validation service must be https (plain http on loopback)");
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError("the identity validation address takes no query, fragment or credentials");
  }
  return url.href.replace(/\/+$/, "");
}

/** The contract's body: only the fields of the holder's kind, in the service's words. */
export function validationBody(request: IdValidationRequest): Record<string, unknown> {
  const evidence = request.evidence;
  const documento = evidence
    ? {
        documento: {
          tipo: evidence.document,
          numero: evidence.documentNumber,
          foto: imageBody(evidence.idPhoto),
          selfie: imageBody(evidence.selfie),
        },
      }
    : {};
  return { ...holderBody(request), ...documento };
}

function imageBody(image: IdImage): { tipo: string; base64: string } {
  const bytes = Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  return { tipo: image.type, base64: bytes.toString("base64") };
}

function holderBody(request: IdValidationRequest): Record<string, string> {
  const required = (value: string | null, what: string): string => {
    if (!value) throw new TypeError(`a ${request.kind} validation needs ${what}`);
    return value;
  };
  const nombre = required(request.fullName.trim() || null, "a name");
  switch (request.kind) {
    case "fisica":
      return { tipoPersona: "fisica", nombre, curp: required(request.curp, "a CURP") };
    case "extranjera":
      return {
        tipoPersona: "extranjera",
        nombre,
        pasaporte: required(request.passportNumber, "a passport number"),
        nacionalidad: required(request.nationality, "a nationality"),
        ...(request.curp ? { curp: request.curp } : {}),
      };
    case "moral":
      return {
        tipoPersona: "moral",
        nombre,
        rfc: required(request.rfc, "an RFC"),
        ...(request.curp ? { curpRepresentante: request.curp } : {}),
      };
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

export function createHttpIdValidator(options: HttpIdValidatorOptions): IdValidator {
  const endpoint = `${validatedBaseUrl(options.url)}/validations`;
  const doFetch = options.fetch ?? fetch;
  const { logger, timeoutMs } = options;

  async function call(body: Record<string, unknown>): Promise<{
    result: IdValidationResult;
    status: number;
  }> {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(endpoint, {
        method: "POST",
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        body: JSON.stringify(body),
        // A redirect would carry the key elsewhere: the contract has none.
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      if (isTimeout(error)) {
        throw new IdValidationUnavailable(`identity validation: no answer in ${timeoutMs} ms`, {
          reason: "timeout",
        });
      }
      throw new IdValidationUnavailable("identity validation: the service could not be reached", {
        reason: "unreachable",
        cause: error,
      });
    }
    const status = response.status;
    if (status === 401 || status === 403) {
      throw new IdValidationUnavailable(
        `identity validation: the service refused our key (HTTP ${status})`,
        { reason: "unauthorized", httpStatus: status },
      );
    }
    if (status !== 200) {
      throw new IdValidationUnavailable(`identity validation: HTTP ${status}`, {
        reason: "http-status",
        httpStatus: status,
      });
    }
    const answer = Buffer.byteLength(text) > MAX_ANSWER_BYTES ? null : parseJson(text);
    const parsed = answerSchema.safeParse(answer);
    if (!parsed.success) {
      throw new IdValidationUnavailable(
        "identity validation: the answer is not the contract's (resultado, referencia, fuente)",
        { reason: "malformed", httpStatus: status },
      );
    }
    return {
      result: {
        outcome: RESULTADOS[parsed.data.resultado],
        reference: parsed.data.referencia,
        source: parsed.data.fuente,
      },
      status,
    };
  }

  return {
    name: "http",
    async validate(request) {
      const body = validationBody(request);
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const { result, status } = await call(body);
        logger.info(
          {
            kind: request.kind,
            outcome: result.outcome,
            reference: result.reference,
            source: result.source,
            status,
            ms: elapsed(),
          },
          "identity validation",
        );
        return result;
      } catch (error) {
        if (!isIdValidationUnavailable(error)) throw error;
        // Our key or request refused, or an answer off the contract: the operator must act.
        const level =
          error.reason === "unauthorized" ||
          error.reason === "malformed" ||
          (error.httpStatus !== null &&
            error.httpStatus >= 400 &&
            error.httpStatus < 500 &&
            error.httpStatus !== 408 &&
            error.httpStatus !== 429)
            ? "error"
            : "warn";
        logger[level](
          {
            kind: request.kind,
            reason: error.reason,
            status: error.httpStatus,
            ms: elapsed(),
          },
          "identity validation unavailable",
        );
        throw error;
      }
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
