/**
 * What never leaves the process readable, in a log line or an error report (decisions 0008,
 * 0111): the value of any key, at any depth, whose name says it may hold a secret or a customer's
 * address. pino's own `redact` takes fixed paths (`*.password` is one level deep), so this walks
 * the object instead; keys are compared by name once and remembered, so a log line whose keys were
 * all seen before costs a map look-up per key.
 */

export const CENSORED = "[oculto]";

/**
 * Words that make a key secret wherever they stand in its name, compared without case, `-` or
 * `_`: `customerEmail`, `x-api-key`, `DATABASE_URL`, `refresh_token`, `set-cookie`…
 */
const SECRET_KEY_WORDS = [
  "password",
  "passwd",
  "secret",
  "token",
  "key",
  "cookie",
  "authorization",
  "credential",
  "email",
  "correo",
  "nip",
  "curp",
  "rfc",
  "pasaporte",
  "passport",
  "databaseurl",
  "connectionstring",
  "smtpurl",
  "dsn",
  "phone",
  "telefono",
  "msisdn",
  "cvc",
  "cvv",
  "cardnumber",
  "session",
] as const;

/** Keys already judged. Bounded: a flood of made-up key names must not grow it for ever. */
const judged = new Map<string, boolean>();
const JUDGED_LIMIT = 2_000;

/** Whether a value under this key name is hidden. */
export function isSecretKey(key: string): boolean {
  let secret = judged.get(key);
  if (secret !== undefined) return secret;
  const folded = key.toLowerCase().replace(/[-_\s.]/g, "");
  secret = SECRET_KEY_WORDS.some((word) => folded.includes(word));
  if (judged.size < JUDGED_LIMIT) judged.set(key, secret);
  return secret;
}

/** Deeper than this, a value is cut (a log line is no place for a deep structure). */
const MAX_DEPTH = 8;

export interface RedactOptions {
  /** What an Error becomes before its keys are read (pino's err serializer, for logs). */
  serializeError?: (error: Error) => unknown;
}

/**
 * `value` with every secret key's value replaced by CENSORED, at any depth. Objects without a
 * secret key are returned as they are (not copied); an object that has one is copied, never
 * changed in place (it may be the caller's). Errors are serialized first (`serializeError`),
 * cycles and depth beyond MAX_DEPTH are cut.
 */
export function redactSecrets<T>(value: T, options: RedactOptions = {}): T {
  return redactValue(value, options, 0, null) as T;
}

/** The objects on the way down, made only once the walk goes below the top (most lines are flat). */
type Ancestors = WeakSet<object> | null;

function redactValue(
  value: unknown,
  options: RedactOptions,
  depth: number,
  parents: Ancestors,
): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return "[…]";
  if (parents !== null && parents.has(value)) return "[circular]";
  if (value instanceof Error) {
    const serialized = options.serializeError ? options.serializeError(value) : plainError(value);
    if (serialized === value) return value;
    return redactValue(serialized, options, depth, parents);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item === null || typeof item !== "object") continue;
      parents ??= new WeakSet();
      parents.add(value);
      const redacted = redactValue(item, options, depth + 1, parents);
      parents.delete(value);
      if (redacted !== item) {
        copy ??= value.slice();
        copy[index] = redacted;
      }
    }
    return copy ?? value;
  }
  if (ArrayBuffer.isView(value) || value instanceof Date) return value;
  if (value instanceof Map) return redactValue(Object.fromEntries(value), options, depth, parents);
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  // A flat object (a request's log line) costs one look-up per key, and is returned as it came.
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    const item = record[key];
    if (item === undefined || item === null) continue;
    let redacted: unknown = item;
    if (isSecretKey(key)) {
      redacted = CENSORED;
    } else if (typeof item === "object") {
      parents ??= new WeakSet();
      parents.add(record);
      redacted = redactValue(item, options, depth + 1, parents);
      parents.delete(record);
    }
    if (redacted !== item) {
      copy ??= { ...record };
      copy[key] = redacted;
    }
  }
  return copy ?? value;
}

/** An Error as a plain object: its name, message, stack and own enumerable fields. */
function plainError(error: Error): Record<string, unknown> {
  return {
    ...(error as unknown as Record<string, unknown>),
    type: error.name,
    message: error.message,
    stack: error.stack,
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  };
}

const EMAIL_ADDRESS = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+/gu;
/** Ten or more digits in a row (a phone number, a card, an ICCID), spaces and dashes allowed. */
const LONG_NUMBER = /(?<![\p{L}\p{N}])\d(?:[ -]?\d){9,}(?![\p{L}\p{N}])/gu;
/** A bearer token, a JWT, or a `key=value` secret in a message. */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** A Mexican CURP (18) or RFC (12–13): letters, six date digits, then letters and digits. */
const CURP_OR_RFC = /\b[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3,8}\b/g;

/**
 * Free text (an error's message, a stack's first line) with what looks like an e-mail address,
 * a long number, a bearer token, a JWT, a CURP or an RFC replaced. An error's message is not
 * ours to choose: a database driver quotes the row it refused, a library the address it failed.
 */
export function scrubText(text: string): string {
  return text
    .replace(EMAIL_ADDRESS, "[correo]")
    .replace(BEARER, "$1 [oculto]")
    .replace(JWT, "[oculto]")
    .replace(CURP_OR_RFC, "[oculto]")
    .replace(LONG_NUMBER, "[número]");
}
