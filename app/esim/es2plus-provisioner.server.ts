import {
  assertIssueRequest,
  type EsimActivation,
  type EsimCancelOutcome,
  type EsimCancelRequest,
  type EsimIssueRequest,
  type EsimProvisioner,
  EsimProvisioningUnavailable,
  type EsimStatusCodeData,
  formatActivationCode,
  iccidDigits,
  isMatchingId,
  isSmdpAddress,
  isWellFormedIccid,
} from "./provisioning";

/**
 * The real provisioner: GSMA SGP.22 ES2+, the operator's interface to its SM-DP+, over HTTPS
 * with JSON bodies (SGP.22 §5.3 for the functions, §6.5 for the binding).
 *
 *   1. DownloadOrder (§5.3.1) reserves a profile (of `profileType`, when given) and answers its
 *      ICCID.
 *   2. ConfirmOrder (§5.3.2) with that ICCID and `releaseFlag: true` releases it for download
 *      and answers the matching ID (and the SM-DP+ address) of the activation code.
 *   3. CancelOrder (§5.3.3), when the customer lost a code nobody installed: the profile becomes
 *      `Unavailable`, so its code downloads nothing any more, and a new one is issued.
 *
 * No EID is sent: the store does not know the customer's phone, so the profile is bound to
 * whichever phone scans the code first.
 *
 * Authentication. SGP.22 leaves the security of ES2+ to the agreement between operator and
 * SM-DP+; in practice it is mutual TLS: the SM-DP+ presents a server certificate from a CA the
 * operator trusts (often a private one), and the store presents a client certificate and key
 * the SM-DP+ has registered for this `functionRequesterIdentifier` (often also an allow-list of
 * source addresses). That belongs to the TLS layer, not to this module: pass a `fetch` whose
 * connections carry the client certificate (with Node's fetch, an undici `Agent` built with
 * `connect: { cert, key, ca }` and given as the `dispatcher`), or send the calls through an
 * egress proxy that holds the certificate. None of that has been tried against a real SM-DP+.
 */
export interface Es2PlusProvisionerOptions {
  /**
   * The SM-DP+'s ES2+ endpoint, e.g. `https://es2plus.smdp.example.mx`; the function paths
   * (`/gsma/rsp2/es2plus/…`) are appended. HTTPS only, plain HTTP on loopback only (tests).
   */
  baseUrl: string;
  /** `functionRequesterIdentifier`: the operator's identifier, as registered at the SM-DP+. */
  requesterId: string;
  /** The profile type agreed with the SM-DP+; absent, its default. */
  profileType?: string;
  /** For each of the two calls, until the whole answer has arrived. */
  timeoutMs: number;
  /**
   * The SM-DP+ address for the activation code when ConfirmOrder answers none (SGP.22 does not
   * oblige it to when the operator has agreed a default). Absent, such an answer is an error.
   */
  smdpAddress?: string;
  /** `X-Admin-Protocol`, `gsma/rsp/v2.<x>.<y>`: the SGP.22 version both sides speak. */
  adminProtocol?: string;
  /** Stands in for the built-in fetch: a test double, or one with a client certificate. */
  fetch?: typeof fetch;
}

export const ES2PLUS_DEFAULT_ADMIN_PROTOCOL = "gsma/rsp/v2.2.0";
const ADMIN_PROTOCOL = /^gsma\/rsp\/v2\.\d+\.\d+$/;

const PATHS = {
  downloadOrder: "/gsma/rsp2/es2plus/downloadOrder",
  confirmOrder: "/gsma/rsp2/es2plus/confirmOrder",
  cancelOrder: "/gsma/rsp2/es2plus/cancelOrder",
} as const;
type Es2PlusFunction = keyof typeof PATHS;

/** §6.5.1.4: both mean the function was executed; a warning still carries its output. */
const EXECUTED = new Set(["Executed-Success", "Executed-WithWarning"]);

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function statusCodeDataOf(value: unknown): EsimStatusCodeData | null {
  if (!isObject(value)) return null;
  return {
    subjectCode: optionalString(value.subjectCode),
    reasonCode: optionalString(value.reasonCode),
    subjectIdentifier: optionalString(value.subjectIdentifier),
    message: optionalString(value.message),
  };
}

/**
 * CancelOrder's refusal because the profile was already downloaded (subject 8.2.1 "Profile
 * ICCID", reason 3.3 "Not Allowed"): the code is spent on a phone. Taken from the published
 * table of ES2+ status codes; not seen from a real SM-DP+.
 */
function isAlreadyDownloaded(error: EsimProvisioningUnavailable): boolean {
  return (
    error.reason === "refused" &&
    error.statusCodeData?.subjectCode === "8.2.1" &&
    error.statusCodeData.reasonCode === "3.3"
  );
}

/** One identifier per eSIM, code and function: a retry repeats the same call. */
function callIdentifier(request: { orderRef: string; position: number; generation: number }) {
  // The position and generation are whole numbers, so the dots keep the parts apart; a first
  // code keeps the identifier it had before replacements existed.
  const base = `${request.orderRef}.${request.position}`;
  return request.generation === 0 ? base : `${base}.${request.generation}`;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function validatedBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError("the ES2+ base URL is not a URL");
  }
  const plainLoopback = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !plainLoopback) {
    throw new TypeError("the ES2+ base URL must be https (plain http on loopback only)");
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError("the ES2+ base URL takes no query, fragment or credentials");
  }
  return url.href.replace(/\/+$/, "");
}

export function createEs2PlusProvisioner(options: Es2PlusProvisionerOptions): EsimProvisioner {
  const base = validatedBaseUrl(options.baseUrl);
  if (typeof options.requesterId !== "string" || options.requesterId.trim() === "") {
    throw new TypeError("the ES2+ requester identifier is required");
  }
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new TypeError("the ES2+ timeout must be a positive number of milliseconds");
  }
  if (options.profileType !== undefined && options.profileType.trim() === "") {
    throw new TypeError("the ES2+ profile type, when given, may not be empty");
  }
  if (options.smdpAddress !== undefined && !isSmdpAddress(options.smdpAddress)) {
    throw new TypeError("the default SM-DP+ address must be a host name");
  }
  const adminProtocol = options.adminProtocol ?? ES2PLUS_DEFAULT_ADMIN_PROTOCOL;
  if (!ADMIN_PROTOCOL.test(adminProtocol)) {
    throw new TypeError("X-Admin-Protocol must read gsma/rsp/v2.<x>.<y>");
  }
  const send: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));

  /**
   * One ES2+ function call. Resolves the response body when the SM-DP+ executed it; every
   * other outcome is an EsimProvisioningUnavailable naming the function and what went wrong.
   */
  async function call(
    fn: Es2PlusFunction,
    functionCallIdentifier: string,
    input: JsonObject,
  ): Promise<JsonObject> {
    const unavailable = (
      message: string,
      details: ConstructorParameters<typeof EsimProvisioningUnavailable>[1],
    ) => new EsimProvisioningUnavailable(`ES2+ ${fn}: ${message}`, details);

    const body = JSON.stringify({
      header: { functionRequesterIdentifier: options.requesterId, functionCallIdentifier },
      ...input,
    });
    let text: string;
    try {
      const response = await send(`${base}${PATHS[fn]}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-Admin-Protocol": adminProtocol,
        },
        body,
        redirect: "error",
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // The timeout covers the body too: the signal also aborts reading it.
      text = await response.text();
      if (response.status !== 200) {
        throw unavailable(`HTTP ${response.status}`, {
          reason: "http-status",
          httpStatus: response.status,
        });
      }
    } catch (error) {
      if (error instanceof EsimProvisioningUnavailable) throw error;
      if (isTimeout(error)) {
        throw unavailable(`no answer within ${options.timeoutMs} ms`, {
          reason: "timeout",
          cause: error,
        });
      }
      throw unavailable("the SM-DP+ could not be reached", { reason: "unreachable", cause: error });
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw unavailable("the answer is not JSON", { reason: "malformed", cause: error });
    }
    const header = isObject(parsed) ? parsed.header : undefined;
    const execution = isObject(header) ? header.functionExecutionStatus : undefined;
    const status = isObject(execution) ? execution.status : undefined;
    if (!isObject(parsed) || typeof status !== "string") {
      throw unavailable("the answer has no header.functionExecutionStatus.status", {
        reason: "malformed",
      });
    }
    if (!EXECUTED.has(status)) {
      const data = statusCodeDataOf(isObject(execution) ? execution.statusCodeData : undefined);
      const codes = data ? ` (${data.subjectCode ?? "?"}/${data.reasonCode ?? "?"})` : "";
      const said = data?.message ? `: ${data.message}` : "";
      throw unavailable(`the SM-DP+ answered ${status}${codes}${said}`, {
        reason: "refused",
        executionStatus: status,
        statusCodeData: data,
      });
    }
    return parsed;
  }

  function malformed(fn: Es2PlusFunction, what: string): EsimProvisioningUnavailable {
    return new EsimProvisioningUnavailable(`ES2+ ${fn}: ${what}`, { reason: "malformed" });
  }

  return {
    name: "es2plus",
    simulatesInstallation: false,

    async issue(request: EsimIssueRequest): Promise<EsimActivation> {
      assertIssueRequest(request);
      const callId = callIdentifier(request);

      const downloaded = await call("downloadOrder", `${callId}.downloadOrder`, {
        ...(options.profileType ? { profileType: options.profileType } : {}),
      });
      const iccidAsSent = downloaded.iccid;
      if (typeof iccidAsSent !== "string" || !isWellFormedIccid(iccidDigits(iccidAsSent))) {
        throw malformed("downloadOrder", "the answer has no well-formed iccid");
      }

      const confirmed = await call("confirmOrder", `${callId}.confirmOrder`, {
        // Echoed as the SM-DP+ wrote it (padded or not): it is its identifier of the profile.
        iccid: iccidAsSent,
        releaseFlag: true,
      });
      const matchingId = confirmed.matchingId;
      if (typeof matchingId !== "string" || matchingId === "" || !isMatchingId(matchingId)) {
        throw malformed("confirmOrder", "the answer has no well-formed matchingId");
      }
      const smdpAddress = confirmed.smdpAddress ?? options.smdpAddress;
      if (typeof smdpAddress !== "string" || !isSmdpAddress(smdpAddress)) {
        throw malformed("confirmOrder", "the answer has no well-formed smdpAddress");
      }

      return {
        activationCode: formatActivationCode(smdpAddress, matchingId),
        smdpAddress,
        matchingId,
        iccid: iccidDigits(iccidAsSent),
        testCode: false,
      };
    },

    async cancel(request: EsimCancelRequest): Promise<EsimCancelOutcome> {
      assertIssueRequest(request);
      if (!isWellFormedIccid(request.iccid)) throw new TypeError("not a well-formed ICCID");
      try {
        await call("cancelOrder", `${callIdentifier(request)}.cancelOrder`, {
          iccid: request.iccid,
          // Never offered again: a code someone may have seen must not name a future line.
          finalProfileStatusIndicator: "Unavailable",
        });
        return "cancelled";
      } catch (error) {
        if (error instanceof EsimProvisioningUnavailable && isAlreadyDownloaded(error)) {
          return "installed";
        }
        throw error;
      }
    },
  };
}
