import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { luhnCheckDigit } from "~/lib/luhn";
import {
  createEs2PlusProvisioner,
  ES2PLUS_DEFAULT_ADMIN_PROTOCOL,
  type Es2PlusProvisionerOptions,
} from "./es2plus-provisioner.server";
import {
  type EsimActivation,
  EsimProvisioningUnavailable,
  type EsimUnavailableReason,
  isEsimProvisioningUnavailable,
  parseActivationCode,
} from "./provisioning";

/**
 * A local stand-in for an SM-DP+'s ES2+ endpoint, answering the shapes SGP.22 §5.3.1–5.3.2 and
 * §6.5 document: `header.functionExecutionStatus.status`, `statusCodeData` on failure, `iccid`
 * from DownloadOrder, `matchingId` and `smdpAddress` from ConfirmOrder. What it cannot be: a
 * real SM-DP+'s mutual TLS, its profile inventory, or its handling of repeated call identifiers.
 */
interface RecordedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

type Handler = (call: RecordedCall, response: ServerResponse) => void;

const iccidBody = "895203100000000042";
const ICCID = `${iccidBody}${luhnCheckDigit(iccidBody)}`;
const MATCHING_ID = "K2-1A7Q4-9ZJ0P-ZX8V2";
const SMDP = "rsp.smdp.example.mx";

const success = { status: "Executed-Success" };

function json(response: ServerResponse, payload: unknown, status = 200) {
  response.writeHead(status, {
    "Content-Type": "application/json;charset=UTF-8",
    "X-Admin-Protocol": ES2PLUS_DEFAULT_ADMIN_PROTOCOL,
  });
  response.end(typeof payload === "string" ? payload : JSON.stringify(payload));
}

const documented: Record<string, Handler> = {
  "/gsma/rsp2/es2plus/downloadOrder": (_call, response) =>
    json(response, { header: { functionExecutionStatus: success }, iccid: ICCID }),
  "/gsma/rsp2/es2plus/confirmOrder": (_call, response) =>
    json(response, {
      header: { functionExecutionStatus: success },
      matchingId: MATCHING_ID,
      smdpAddress: SMDP,
    }),
  "/gsma/rsp2/es2plus/cancelOrder": (_call, response) =>
    json(response, { header: { functionExecutionStatus: success } }),
};

let server: Server;
let baseUrl: string;
let calls: RecordedCall[];
let handlers: Record<string, Handler>;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (raw += chunk));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://stub").pathname.replace(/^\/prefix/, "");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // Recorded as empty: the assertions on the body then fail.
      }
      const call = { path, headers: request.headers, body };
      calls.push(call);
      const handler = request.method === "POST" ? handlers[path] : undefined;
      if (handler) handler(call, response);
      else json(response, { error: "not found" }, 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  calls = [];
  handlers = { ...documented };
});

function provisioner(options: Partial<Es2PlusProvisionerOptions> = {}) {
  return createEs2PlusProvisioner({
    baseUrl,
    requesterId: "conecta-movil",
    timeoutMs: 2_000,
    ...options,
  });
}

const request = { orderRef: "CM-2026-000123", position: 0, generation: 0 };

/** The issue fails with an EsimProvisioningUnavailable of this reason, and never with a code. */
async function expectUnavailable(
  attempt: Promise<EsimActivation>,
  reason: EsimUnavailableReason,
): Promise<EsimProvisioningUnavailable> {
  const outcome = await attempt.then(
    (activation) => ({ activation }),
    (error: unknown) => ({ error }),
  );
  if ("activation" in outcome) {
    throw new Error(`expected a failure, got the code ${outcome.activation.activationCode}`);
  }
  expect(isEsimProvisioningUnavailable(outcome.error)).toBe(true);
  const error = outcome.error as EsimProvisioningUnavailable;
  expect(error.reason).toBe(reason);
  // The error never carries a matching ID.
  expect(error.message).not.toContain(MATCHING_ID);
  return error;
}

describe("ES2+ provisioner: the documented round trip", () => {
  it("orders, confirms with release, and returns a real activation", async () => {
    const activation = await provisioner({ profileType: "CONECTA_5G" }).issue(request);
    expect(activation).toEqual({
      activationCode: `LPA:1$${SMDP}$${MATCHING_ID}`,
      smdpAddress: SMDP,
      matchingId: MATCHING_ID,
      iccid: ICCID,
      testCode: false,
    });
    expect(parseActivationCode(activation.activationCode)).not.toBeNull();

    expect(calls.map((call) => call.path)).toEqual([
      "/gsma/rsp2/es2plus/downloadOrder",
      "/gsma/rsp2/es2plus/confirmOrder",
    ]);
    for (const call of calls) {
      expect(call.headers["content-type"]).toBe("application/json");
      expect(call.headers["x-admin-protocol"]).toMatch(/^gsma\/rsp\/v2\.\d+\.\d+$/);
    }
    const [download, confirm] = calls;
    expect(download.body).toEqual({
      header: {
        functionRequesterIdentifier: "conecta-movil",
        functionCallIdentifier: "CM-2026-000123.0.downloadOrder",
      },
      profileType: "CONECTA_5G",
    });
    expect(confirm.body).toEqual({
      header: {
        functionRequesterIdentifier: "conecta-movil",
        functionCallIdentifier: "CM-2026-000123.0.confirmOrder",
      },
      iccid: ICCID,
      releaseFlag: true,
    });
  });

  it("sends no profileType when none is configured", async () => {
    await provisioner().issue(request);
    expect(calls[0].body).not.toHaveProperty("profileType");
  });

  it("repeats the same call identifiers for the same eSIM, and others for another", async () => {
    const es2plus = provisioner();
    await es2plus.issue(request);
    await es2plus.issue(request);
    await es2plus.issue({ ...request, position: 1 });
    const ids = calls.map(
      (call) => (call.body.header as { functionCallIdentifier: string }).functionCallIdentifier,
    );
    expect(ids.slice(0, 2)).toEqual(ids.slice(2, 4));
    expect(ids.slice(4)).toEqual([
      "CM-2026-000123.1.downloadOrder",
      "CM-2026-000123.1.confirmOrder",
    ]);
  });

  it("accepts a 19-digit ICCID padded with F, echoes it as sent and keeps the digits", async () => {
    const body = "895203100000000004";
    const padded = `${body}${luhnCheckDigit(body)}F`;
    handlers["/gsma/rsp2/es2plus/downloadOrder"] = (_call, response) =>
      json(response, { header: { functionExecutionStatus: success }, iccid: padded });
    const activation = await provisioner().issue(request);
    expect(activation.iccid).toBe(padded.slice(0, 19));
    expect(calls[1].body.iccid).toBe(padded);
  });

  it("accepts Executed-WithWarning, an executed function", async () => {
    handlers["/gsma/rsp2/es2plus/confirmOrder"] = (_call, response) =>
      json(response, {
        header: { functionExecutionStatus: { status: "Executed-WithWarning" } },
        matchingId: MATCHING_ID,
        smdpAddress: SMDP,
      });
    expect((await provisioner().issue(request)).matchingId).toBe(MATCHING_ID);
  });

  it("uses the configured SM-DP+ address when ConfirmOrder answers none", async () => {
    handlers["/gsma/rsp2/es2plus/confirmOrder"] = (_call, response) =>
      json(response, { header: { functionExecutionStatus: success }, matchingId: MATCHING_ID });
    const activation = await provisioner({ smdpAddress: "default.smdp.example.mx" }).issue(request);
    expect(activation.activationCode).toBe(`LPA:1$default.smdp.example.mx$${MATCHING_ID}`);
    await expectUnavailable(provisioner().issue(request), "malformed");
  });

  it("keeps a path prefix of the base URL", async () => {
    await provisioner({ baseUrl: `${baseUrl}/prefix/` }).issue(request);
    expect(calls.map((call) => call.path)).toEqual([
      "/gsma/rsp2/es2plus/downloadOrder",
      "/gsma/rsp2/es2plus/confirmOrder",
    ]);
  });

  it("calls through the fetch it is given (where a client certificate would live)", async () => {
    const seen: string[] = [];
    const es2plus = provisioner({
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    await es2plus.issue(request);
    expect(seen).toEqual([
      `${baseUrl}/gsma/rsp2/es2plus/downloadOrder`,
      `${baseUrl}/gsma/rsp2/es2plus/confirmOrder`,
    ]);
  });
});

describe("ES2+ provisioner: a lost code replaced", () => {
  it("a new code is a new call identifier for the same eSIM", async () => {
    await provisioner().issue({ ...request, generation: 2 });
    expect(
      calls.map(
        (call) => (call.body.header as { functionCallIdentifier: string }).functionCallIdentifier,
      ),
    ).toEqual(["CM-2026-000123.0.2.downloadOrder", "CM-2026-000123.0.2.confirmOrder"]);
  });

  it("cancels the old profile as Unavailable, so that its code downloads nothing", async () => {
    expect(await provisioner().cancel({ ...request, generation: 1, iccid: ICCID })).toBe(
      "cancelled",
    );
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe("/gsma/rsp2/es2plus/cancelOrder");
    expect(calls[0].body).toEqual({
      header: {
        functionRequesterIdentifier: "conecta-movil",
        functionCallIdentifier: "CM-2026-000123.0.1.cancelOrder",
      },
      iccid: ICCID,
      finalProfileStatusIndicator: "Unavailable",
    });
  });

  it("answers installed when the SM-DP+ says a phone already downloaded the profile", async () => {
    handlers["/gsma/rsp2/es2plus/cancelOrder"] = (_call, response) =>
      json(response, {
        header: {
          functionExecutionStatus: {
            status: "Failed",
            statusCodeData: { subjectCode: "8.2.1", reasonCode: "3.3" },
          },
        },
      });
    expect(await provisioner().cancel({ ...request, iccid: ICCID })).toBe("installed");
  });

  it("any other refusal or silence is unavailable: nothing is taken as cancelled", async () => {
    handlers["/gsma/rsp2/es2plus/cancelOrder"] = (_call, response) =>
      json(response, {
        header: {
          functionExecutionStatus: {
            status: "Failed",
            statusCodeData: { subjectCode: "8.2.1", reasonCode: "3.9" },
          },
        },
      });
    await expect(provisioner().cancel({ ...request, iccid: ICCID })).rejects.toSatisfy(
      isEsimProvisioningUnavailable,
    );
    handlers["/gsma/rsp2/es2plus/cancelOrder"] = (_call, response) =>
      json(response, { error: "down" }, 503);
    await expect(provisioner().cancel({ ...request, iccid: ICCID })).rejects.toSatisfy(
      isEsimProvisioningUnavailable,
    );
  });
});

describe("ES2+ provisioner: failures are EsimProvisioningUnavailable, never a code", () => {
  it("a Failed execution status of DownloadOrder, with its status code data", async () => {
    handlers["/gsma/rsp2/es2plus/downloadOrder"] = (_call, response) =>
      json(response, {
        header: {
          functionExecutionStatus: {
            status: "Failed",
            statusCodeData: {
              subjectCode: "8.2.5",
              reasonCode: "3.7",
              message: "No profile available for this profile type",
            },
          },
        },
      });
    const error = await expectUnavailable(provisioner().issue(request), "refused");
    expect(error.executionStatus).toBe("Failed");
    expect(error.statusCodeData).toEqual({
      subjectCode: "8.2.5",
      reasonCode: "3.7",
      subjectIdentifier: null,
      message: "No profile available for this profile type",
    });
    expect(error.message).toContain("downloadOrder");
    expect(error.message).toContain("8.2.5/3.7");
    // Nothing was confirmed.
    expect(calls).toHaveLength(1);
  });

  it("a Failed or Expired ConfirmOrder", async () => {
    for (const status of ["Failed", "Expired"]) {
      handlers["/gsma/rsp2/es2plus/confirmOrder"] = (_call, response) =>
        json(response, { header: { functionExecutionStatus: { status } } });
      const error = await expectUnavailable(provisioner().issue(request), "refused");
      expect(error.executionStatus).toBe(status);
      expect(error.statusCodeData).toBeNull();
      expect(error.message).toContain("confirmOrder");
    }
  });

  it("an HTTP 500", async () => {
    handlers["/gsma/rsp2/es2plus/downloadOrder"] = (_call, response) =>
      json(response, "Internal Server Error", 500);
    const error = await expectUnavailable(provisioner().issue(request), "http-status");
    expect(error.httpStatus).toBe(500);
  });

  it("a successful-looking body under another HTTP status", async () => {
    handlers["/gsma/rsp2/es2plus/confirmOrder"] = (_call, response) =>
      json(
        response,
        {
          header: { functionExecutionStatus: success },
          matchingId: MATCHING_ID,
          smdpAddress: SMDP,
        },
        202,
      );
    await expectUnavailable(provisioner().issue(request), "http-status");
  });

  it("no answer in time", async () => {
    handlers["/gsma/rsp2/es2plus/downloadOrder"] = () => {
      // Never answers; the connection is closed when the server stops.
    };
    const started = Date.now();
    await expectUnavailable(provisioner({ timeoutMs: 150 }).issue(request), "timeout");
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("an answer whose body stalls after the headers", async () => {
    handlers["/gsma/rsp2/es2plus/confirmOrder"] = (_call, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write('{"header":');
    };
    await expectUnavailable(provisioner({ timeoutMs: 150 }).issue(request), "timeout");
  });

  it("nobody listening", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expectUnavailable(
      provisioner({ baseUrl: `http://127.0.0.1:${port}` }).issue(request),
      "unreachable",
    );
  });

  const downloadAnswers: Array<[string, unknown]> = [
    ["a body that is not JSON", "<html>maintenance</html>"],
    ["a JSON array", "[]"],
    ["no header", { iccid: ICCID }],
    ["no execution status", { header: {}, iccid: ICCID }],
    ["an execution status that is not a string", { header: { functionExecutionStatus: 1 } }],
    ["no iccid", { header: { functionExecutionStatus: success } }],
    [
      "an iccid failing the Luhn check",
      {
        header: { functionExecutionStatus: success },
        iccid: `${ICCID.slice(0, -1)}${(Number(ICCID.at(-1)) + 1) % 10}`,
      },
    ],
    ["an iccid that is a number", { header: { functionExecutionStatus: success }, iccid: 8952 }],
  ];

  it.each(downloadAnswers)("a malformed DownloadOrder answer: %s", async (_what, answer) => {
    handlers["/gsma/rsp2/es2plus/downloadOrder"] = (_call, response) => json(response, answer);
    await expectUnavailable(provisioner().issue(request), "malformed");
    expect(calls).toHaveLength(1);
  });

  const confirmAnswers: Array<[string, Record<string, unknown>]> = [
    ["no matchingId", { smdpAddress: SMDP }],
    ["an empty matchingId", { matchingId: "", smdpAddress: SMDP }],
    ["a lower-case matchingId", { matchingId: "k2-1a7q4", smdpAddress: SMDP }],
    [
      "a matchingId carrying another field",
      { matchingId: `${MATCHING_ID}$1.2.3`, smdpAddress: SMDP },
    ],
    ["an smdpAddress carrying a field", { matchingId: MATCHING_ID, smdpAddress: `${SMDP}$X` }],
    ["an smdpAddress that is a URL", { matchingId: MATCHING_ID, smdpAddress: `https://${SMDP}` }],
    ["an smdpAddress that is not a string", { matchingId: MATCHING_ID, smdpAddress: 42 }],
  ];

  it.each(confirmAnswers)("a malformed ConfirmOrder answer: %s", async (_what, fields) => {
    handlers["/gsma/rsp2/es2plus/confirmOrder"] = (_call, response) =>
      json(response, { header: { functionExecutionStatus: success }, ...fields });
    await expectUnavailable(
      provisioner({ smdpAddress: "default.smdp.example.mx" }).issue(request),
      "malformed",
    );
  });
});

describe("ES2+ provisioner: configuration", () => {
  it.each([
    ["plain http to another host", { baseUrl: "http://smdp.example.mx" }],
    ["not a URL", { baseUrl: "smdp.example.mx" }],
    ["a query string", { baseUrl: "https://smdp.example.mx/?a=1" }],
    ["credentials in the URL", { baseUrl: "https://user:pass@smdp.example.mx" }],
    ["no requester", { requesterId: " " }],
    ["a zero timeout", { timeoutMs: 0 }],
    ["an empty profile type", { profileType: "" }],
    ["a default address that is not a host name", { smdpAddress: "https://smdp.example.mx" }],
    ["another admin protocol", { adminProtocol: "gsma/rsp/v3.0.0" }],
  ])("refuses %s", (_what, options) => {
    expect(() => provisioner(options as Partial<Es2PlusProvisionerOptions>)).toThrow(TypeError);
  });

  it("accepts https to any host and plain http on loopback", () => {
    expect(() => provisioner({ baseUrl: "https://es2plus.smdp.example.mx/api" })).not.toThrow();
    expect(() => provisioner({ baseUrl: "http://localhost:8080" })).not.toThrow();
  });

  it("sends the configured admin protocol", async () => {
    await provisioner({ adminProtocol: "gsma/rsp/v2.5.0" }).issue(request);
    expect(calls[0].headers["x-admin-protocol"]).toBe("gsma/rsp/v2.5.0");
  });

  it("refuses a malformed request before calling anyone", async () => {
    await expect(provisioner().issue({ orderRef: "", position: 0, generation: 0 })).rejects.toThrow(
      TypeError,
    );
    expect(calls).toHaveLength(0);
  });
});
