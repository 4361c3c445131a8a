import { escapeControlCharacters } from "~/lib/control-characters";
import {
  type BssErrorDetail,
  type BssRefusalReason,
  BssRefused,
  BssUnavailable,
  isBssUnavailable,
} from "./bss";

/**
 * The HTTP side of the TMF adapter (./tmf.server.ts): an OAuth 2.0 access token by the client
 * credentials grant (RFC 6749 §4.4: Basic client authentication, the token kept until shortly
 * before it expires, fetched by one call at a time, replaced once after a 401), TMF API calls
 * with their failures read as BssUnavailable or BssRefused, and TMF630 lists read page by page.
 *
 * Nothing secret leaves this module: the client secret goes only in the token request's
 * Authorization header, the access token only in the API calls'; error messages name the call
 * and the status, never a header, a URL's query or a token.
 */
export interface TmfClientOptions {
  /**
   * Where the APIs live, e.g. `https://bss.example.mx`; their base paths (TMF_API_PATHS) are
   * appended. HTTPS only, plain HTTP on loopback only (tests).
   */
  baseUrl: string;
  /** The OAuth 2.0 token endpoint (same rule). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Each HTTP call, until its whole answer has arrived. */
  timeoutMs: number;
  /** The OAuth scope to ask for, when the authorisation server wants one (space-separated). */
  scope?: string;
  /** Stands in for the built-in fetch (tests, or one with a client certificate). */
  fetch?: typeof fetch;
  /** The clock, for token expiry (tests move it). */
  now?: () => Date;
}

/** The TMF v4 base paths (each specification's `basePath`). */
export const TMF_API_PATHS = {
  productInventory: "/tmf-api/productInventory/v4",
  prepayBalance: "/tmf-api/prepayBalanceManagement/v4",
  usage: "/tmf-api/usageManagement/v4",
  productOrdering: "/tmf-api/productOrderingManagement/v4",
} as const;
export type TmfApi = keyof typeof TMF_API_PATHS;

/** Items asked for per page; a BSS may answer fewer (it pages on its own limit). */
const PAGE_SIZE = 100;
/** Seconds taken off a token's lifetime, so that it is never used at its very end. */
const TOKEN_MARGIN_SECONDS = 60;
/** A token answered without expires_in (RFC 6749 makes it optional) is kept this long. */
const DEFAULT_TOKEN_SECONDS = 300;
/** The most of an error text from the BSS kept in a message. */
const DETAIL_LENGTH = 200;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export function sameName(value: unknown, name: string): boolean {
  return typeof value === "string" && value.trim().toLowerCase() === name.toLowerCase();
}

/** Text from the BSS, safe for a log line: no control characters, not too long. */
export function quoted(text: string): string {
  const clean = escapeControlCharacters(text);
  return clean.length > DETAIL_LENGTH ? `${clean.slice(0, DETAIL_LENGTH)}…` : clean;
}

function validatedUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`the ${what} is not a URL`);
  }
  const plainLoopback = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !plainLoopback) {
    throw new TypeError(`the ${what} must be https (plain http on loopback only)`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError(`the ${what} takes no query, fragment or credentials`);
  }
  return url.href.replace(/\/+$/, "");
}

/** application/x-www-form-urlencoded, as RFC 6749 §2.3.1 wants the Basic credentials encoded. */
function formEncoded(value: string): string {
  return new URLSearchParams([["v", value]]).toString().slice(2);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

export interface TmfAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface TmfClient {
  /**
   * Calls a TMF API with the access token, once more with a new token after a 401. Resolves a
   * 2xx answer (and the statuses in `accept`); every other outcome is a BssUnavailable or a
   * BssRefused naming the call.
   */
  call(
    api: TmfApi,
    what: string,
    request: {
      method: "GET" | "POST";
      path: string;
      query?: Record<string, string | number>;
      body?: unknown;
      accept?: number[];
    },
  ): Promise<TmfAnswer>;
  /**
   * Every item of a list (TMF630 pagination: offset and limit; X-Total-Count; 200 or 206 alike),
   * reading at most `maxPages`. A 404 reads as an empty list: some BSSs answer so when nothing
   * matches.
   */
  list(
    api: TmfApi,
    what: string,
    path: string,
    query: Record<string, string>,
    maxPages: number,
  ): Promise<JsonObject[]>;
}

export function createTmfClient(options: TmfClientOptions): TmfClient {
  const base = validatedUrl(options.baseUrl, "BSS base URL");
  const tokenUrl = validatedUrl(options.tokenUrl, "BSS token URL");
  if (typeof options.clientId !== "string" || options.clientId.trim() === "") {
    throw new TypeError("the BSS client id is required");
  }
  if (typeof options.clientSecret !== "string" || options.clientSecret === "") {
    throw new TypeError("the BSS client secret is required");
  }
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new TypeError("the BSS timeout must be a positive number of milliseconds");
  }
  const send: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? (() => new Date());
  const basicCredentials = Buffer.from(
    `${formEncoded(options.clientId)}:${formEncoded(options.clientSecret)}`,
  ).toString("base64");

  // -------------------------------------------------------------------------------------------
  // OAuth 2.0 client credentials: one token at a time, fetched by one call at a time.
  // -------------------------------------------------------------------------------------------

  let cached: { token: string; expiresAt: number } | null = null;
  let inFlight: Promise<string> | null = null;

  function accessToken(): Promise<string> {
    if (cached && now().getTime() < cached.expiresAt) return Promise.resolve(cached.token);
    inFlight ??= requestToken().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  function forgetToken(token: string) {
    if (cached?.token === token) cached = null;
  }

  async function requestToken(): Promise<string> {
    const what = "OAuth token";
    const body = new URLSearchParams({ grant_type: "client_credentials" });
    if (options.scope) body.set("scope", options.scope);
    let status: number;
    let text: string;
    try {
      const response = await send(tokenUrl, {
        method: "POST",
        headers: {
          Authorization: `Basic ${basicCredentials}`,
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
        },
        body: body.toString(),
        redirect: "error",
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw transportFailure(what, error);
    }
    if (status !== 200) {
      let parsed: unknown;
      try {
        parsed = parseJson(text);
      } catch {
        // A gateway's error page: the status says enough.
      }
      // RFC 6749 §5.2: 400 (or 401 for bad client credentials) with an `error` code.
      const code = isObject(parsed) ? asString(parsed.error) : null;
      if (code && (status === 400 || status === 401)) {
        throw new BssUnavailable(`${what}: refused (${quoted(code)})`, {
          reason: "unauthorized",
          httpStatus: status,
        });
      }
      throw new BssUnavailable(`${what}: HTTP ${status}`, {
        reason: status === 401 || status === 403 ? "unauthorized" : "http-status",
        httpStatus: status,
      });
    }
    const parsed = parseJson(text, `${what}: the answer`);
    if (!isObject(parsed)) {
      throw new BssUnavailable(`${what}: the answer is not a JSON object`, { reason: "malformed" });
    }
    const token = asString(parsed.access_token);
    if (!token || !sameName(parsed.token_type, "bearer")) {
      throw new BssUnavailable(`${what}: no bearer access_token in the answer`, {
        reason: "malformed",
      });
    }
    const lifetime =
      parsed.expires_in === undefined ? DEFAULT_TOKEN_SECONDS : Number(parsed.expires_in);
    if (!Number.isFinite(lifetime) || lifetime <= 0) {
      throw new BssUnavailable(`${what}: expires_in is not a positive number`, {
        reason: "malformed",
      });
    }
    const margin = Math.min(TOKEN_MARGIN_SECONDS, lifetime / 2);
    cached = { token, expiresAt: now().getTime() + (lifetime - margin) * 1000 };
    return token;
  }

  // -------------------------------------------------------------------------------------------
  // One API call
  // -------------------------------------------------------------------------------------------

  function transportFailure(what: string, error: unknown): BssUnavailable {
    if (isBssUnavailable(error)) return error;
    if (isTimeout(error)) {
      return new BssUnavailable(`${what}: no answer within ${options.timeoutMs} ms`, {
        reason: "timeout",
        cause: error,
      });
    }
    return new BssUnavailable(`${what}: the BSS could not be reached`, {
      reason: "unreachable",
      cause: error,
    });
  }

  /** undefined for an empty body; throws a malformed BssUnavailable for anything but JSON. */
  function parseJson(text: string, what = "the answer"): unknown {
    if (text.trim() === "") return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new BssUnavailable(`${what} is not JSON`, { reason: "malformed", cause: error });
    }
  }

  /** A TMF Error body (code, reason, message), or RFC 7807 problem details, read leniently. */
  function errorDetail(body: unknown): BssErrorDetail | null {
    if (!isObject(body)) return null;
    const text = (value: unknown) =>
      typeof value === "string" || typeof value === "number" ? quoted(String(value)) : null;
    const detail = {
      code: text(body.code),
      reason: text(body.reason ?? body.title),
      message: text(body.message ?? body.detail),
    };
    return detail.code || detail.reason || detail.message ? detail : null;
  }

  /**
   * What an HTTP status says: the BSS refused the request as it was (400, 404, 409, 410, 422:
   * the same request gets the same answer), or it could not deal with it now (401 and 403: our
   * credentials; 408, 429, 5xx and anything else: later).
   */
  function statusFailure(
    what: string,
    answer: TmfAnswer,
    refusal: BssRefusalReason = "rejected",
  ): BssRefused | BssUnavailable {
    const detail = errorDetail(answer.body);
    const said = detail
      ? ` (${[detail.code, detail.reason, detail.message].filter(Boolean).join(": ")})`
      : "";
    if ([400, 404, 409, 410, 422].includes(answer.status)) {
      return new BssRefused(`${what}: HTTP ${answer.status}${said}`, {
        reason: refusal,
        httpStatus: answer.status,
        detail,
      });
    }
    return new BssUnavailable(`${what}: HTTP ${answer.status}${said}`, {
      reason: answer.status === 401 || answer.status === 403 ? "unauthorized" : "http-status",
      httpStatus: answer.status,
    });
  }

  async function call(
    api: TmfApi,
    what: string,
    request: {
      method: "GET" | "POST";
      path: string;
      query?: Record<string, string | number>;
      body?: unknown;
      accept?: number[];
    },
  ): Promise<TmfAnswer> {
    const url = new URL(`${base}${TMF_API_PATHS[api]}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      url.searchParams.set(name, String(value));
    }
    for (let attempt = 0; ; attempt++) {
      const token = await accessToken();
      let answer: TmfAnswer;
      try {
        const response = await send(url, {
          method: request.method,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: "application/json",
            ...(request.body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          redirect: "error",
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        // The timeout covers the body too: the signal also aborts reading it.
        const text = await response.text();
        answer = { status: response.status, headers: response.headers, body: undefined };
        try {
          answer.body = parseJson(text);
        } catch (error) {
          // An error page from a gateway is no JSON: the status says enough.
          if (response.ok) throw error;
        }
      } catch (error) {
        if (isBssUnavailable(error)) {
          throw new BssUnavailable(`${what}: ${error.message}`, {
            reason: error.reason,
            cause: error,
          });
        }
        throw transportFailure(what, error);
      }
      if (answer.status === 401 && attempt === 0) {
        forgetToken(token);
        continue;
      }
      if (
        (answer.status >= 200 && answer.status < 300) ||
        request.accept?.includes(answer.status)
      ) {
        return answer;
      }
      throw statusFailure(what, answer);
    }
  }

  async function list(
    api: TmfApi,
    what: string,
    path: string,
    query: Record<string, string>,
    maxPages: number,
  ): Promise<JsonObject[]> {
    const items: JsonObject[] = [];
    for (let page = 0; page < maxPages; page++) {
      const answer = await call(api, what, {
        method: "GET",
        path,
        query: { ...query, offset: items.length, limit: PAGE_SIZE },
        accept: [404],
      });
      if (answer.status === 404) return items;
      if (!Array.isArray(answer.body)) {
        throw new BssUnavailable(`${what}: the answer is not a list`, { reason: "malformed" });
      }
      for (const item of answer.body) {
        if (!isObject(item)) {
          throw new BssUnavailable(`${what}: a list item is not an object`, {
            reason: "malformed",
          });
        }
        items.push(item);
      }
      const total = Number(answer.headers.get("X-Total-Count") ?? Number.NaN);
      const done = Number.isInteger(total) ? items.length >= total : answer.body.length < PAGE_SIZE;
      if (done || answer.body.length === 0) return items;
    }
    throw new BssUnavailable(`${what}: more than ${maxPages} pages (is the filter applied?)`, {
      reason: "malformed",
    });
  }

  return { call, list };
}
