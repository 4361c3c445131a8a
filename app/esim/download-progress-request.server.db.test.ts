import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Order } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { esimActivationRef } from "~/line/activations.server";
import { activationJobId, createLineJobs, lineJobOutcome } from "~/line/line-jobs.server";
import { createBssSimulator } from "~/line/simulator.server";
import { testIccid } from "../../tests/support/iccids";
import { makeOrder, seedCatalogue } from "../../tests/support/store-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { ensureEsimActivations } from "./activations.server";
import { HANDLE_DOWNLOAD_PROGRESS_INFO_PATH } from "./download-progress";
import { receiveDownloadProgressInfo } from "./download-progress-request.server";
import {
  createEs2PlusProvisioner,
  ES2PLUS_DEFAULT_ADMIN_PROTOCOL,
} from "./es2plus-provisioner.server";
import type { RequestContext } from "~/context";

const SECRET = "es2plus-notification-secret-0123456789-abcdef";

let db: Db;
let logged: Array<Record<string, unknown>>;
let serial: number;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await seedCatalogue(db);
  logged = [];
  serial = 0;
});
afterEach(async () => {
  await db.destroy();
});

function recordingLogger() {
  const logger = pino({ level: "silent" });
  for (const level of ["info", "warn", "error"] as const) {
    vi.spyOn(logger, level).mockImplementation(((entry: Record<string, unknown>) => {
      logged.push({ level, ...entry });
    }) as never);
  }
  return logger;
}

function context(overrides: Record<string, unknown> = {}): RequestContext {
  return {
    db,
    logger: recordingLogger(),
    requestId: "r1",
    config: {
      ESIM_PROVIDER: "es2plus",
      ES2PLUS_NOTIFICATION_SECRET: SECRET,
      ...overrides,
    },
  } as unknown as RequestContext;
}

/**
 * An SM-DP+ stand-in's ES2+ DownloadOrder and ConfirmOrder (SGP.22 §5.3.1–5.3.2), behind the
 * real provisioner: each profile reserved has the next test ICCID, padded with "F" as ES2+
 * allows.
 */
const smdpStandIn = () =>
  createEs2PlusProvisioner({
    baseUrl: "http://127.0.0.1:9",
    requesterId: "conecta-movil",
    timeoutMs: 1000,
    fetch: (async (input: string) => {
      const fn = String(input).split("/").pop();
      const header = { functionExecutionStatus: { status: "Executed-Success" } };
      if (fn === "downloadOrder") {
        serial += 1;
        return Response.json({ header, iccid: `${testIccid(700 + serial)}F` });
      }
      return Response.json({
        header,
        matchingId: `MATCH-${serial}`,
        smdpAddress: "rsp.smdp.example.mx",
      });
    }) as typeof fetch,
  });

/** A paid eSIM order whose codes the SM-DP+ stand-in issued; their ICCIDs, in order. */
async function esimOrder(quantity = 1): Promise<{ order: Order; iccids: string[] }> {
  const order = await makeOrder(db, {
    simType: "esim",
    items: [{ id: "conecta-500", quantity }],
  });
  const issued = await ensureEsimActivations(db, smdpStandIn(), { warn: vi.fn() }, order);
  if (issued.status !== "ready") throw new Error("expected codes");
  return { order, iccids: issued.activations.map((activation) => activation.iccid) };
}

function notification(iccid: string, overrides: Record<string, unknown> = {}) {
  return {
    header: {
      functionRequesterIdentifier: "rsp.smdp.example.mx",
      functionCallIdentifier: `call-${iccid}`,
    },
    eid: "89049032000001000000012345678901",
    iccid: `${iccid}F`,
    profileType: "CONECTA-ESIM-01",
    timestamp: "2026-11-25T17:05:11Z",
    notificationPointId: 4,
    notificationPointStatus: { status: "Executed-Success" },
    resultData: "vzeBpg==",
    ...overrides,
  };
}

function post(body: unknown, authorization: string | null = `Bearer ${SECRET}`): Request {
  return new Request(`http://tienda.test${HANDLE_DOWNLOAD_PROGRESS_INFO_PATH}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Admin-Protocol": ES2PLUS_DEFAULT_ADMIN_PROTOCOL,
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function send(request: Request, ctx = context()): Promise<Response> {
  return (await receiveDownloadProgressInfo(ctx, request)) as Response;
}

async function installedAt(order: Order, position = 0): Promise<string | null> {
  const row = await db
    .selectFrom("esim_activations")
    .select("installed_at")
    .where("order_id", "=", order.ref)
    .where("position", "=", position)
    .executeTakeFirstOrThrow();
  return row.installed_at;
}

const activationJob = (order: Order, position = 0) =>
  lineJobOutcome(db, activationJobId(esimActivationRef(order.ref, position)));

async function lineJobCount(): Promise<number> {
  const rows = await db.selectFrom("line_jobs").select("id").execute();
  return rows.length;
}

describe("ES2+ HandleDownloadProgressInfo", () => {
  it("marks the eSIM installed on a BPP installation and queues its line, answering 204", async () => {
    const { order, iccids } = await esimOrder(2);
    const response = await send(post(notification(iccids[1])));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(response.headers.get("X-Admin-Protocol")).toBe(ES2PLUS_DEFAULT_ADMIN_PROTOCOL);
    expect(await installedAt(order, 1)).not.toBeNull();
    expect(await installedAt(order, 0)).toBeNull();
    expect((await activationJob(order, 1))?.state).toBe("pending");
    expect(await activationJob(order, 0)).toBeNull();
    // Neither the ICCID nor the EID reaches the log; the folio and the step do.
    const text = JSON.stringify(logged);
    expect(text).not.toContain(iccids[1]);
    expect(text).not.toContain("89049032000001000000012345678901");
    expect(logged).toContainEqual(
      expect.objectContaining({ folio: order.folio, position: 1, notificationPointId: 4 }),
    );
  });

  it("turns the order's eSIM into a line: issued by the SM-DP+, installed, activated at the BSS", async () => {
    const { order, iccids } = await esimOrder();
    expect((await send(post(notification(iccids[0])))).status).toBe(204);
    const bss = createBssSimulator({ db });
    await createLineJobs({ db, bss, logger: pino({ level: "silent" }) }).runDue();
    const outcome = await activationJob(order);
    expect(outcome?.state).toBe("done");
    const number = (outcome as { result: { number: string } }).result.number;
    expect(number).toMatch(/^5599\d{6}$/);
    const line = await bss.findLine(number);
    expect(line?.status).toBe("active");
  });

  it("changes nothing on a repeated notification, and still answers success", async () => {
    const { order, iccids } = await esimOrder();
    expect((await send(post(notification(iccids[0])))).status).toBe(204);
    const first = await installedAt(order);
    const jobs = await lineJobCount();
    const again = await send(post(notification(iccids[0], { timestamp: "2026-11-25T18:00:00Z" })));
    expect(again.status).toBe(204);
    expect(await installedAt(order)).toBe(first);
    expect(await lineJobCount()).toBe(jobs);
  });

  it("acknowledges a profile the store did not issue and does nothing, logging it masked", async () => {
    const { order } = await esimOrder();
    const stranger = testIccid(999);
    const response = await send(post(notification(stranger)));
    expect(response.status).toBe(204);
    expect(await installedAt(order)).toBeNull();
    expect(await lineJobCount()).toBe(0);
    expect(JSON.stringify(logged)).not.toContain(stranger);
    expect(logged).toContainEqual(
      expect.objectContaining({ iccid: `${stranger.slice(0, 4)} •••• ${stranger.slice(-4)}` }),
    );
  });

  it("takes note of the other steps, failures and deletions without changing anything", async () => {
    const { order, iccids } = await esimOrder();
    const others = [
      { notificationPointId: 1, notificationPointStatus: { status: "Executed-Success" } },
      { notificationPointId: 3, notificationPointStatus: { status: "Executed-Success" } },
      {
        notificationPointId: 4,
        notificationPointStatus: {
          status: "Failed",
          statusCodeData: { subjectCode: "8.2", reasonCode: "4.2", message: "install failed" },
        },
      },
      { notificationPointId: 2, notificationPointStatus: { status: "Expired" } },
      // A deletion forwarded from the eUICC (its number varies between SM-DP+s).
      { notificationPointId: "5", notificationPointStatus: { status: "Executed-Success" } },
      { notificationPointId: 102, notificationPointStatus: { status: "Executed-Success" } },
    ];
    for (const step of others) {
      const response = await send(post(notification(iccids[0], step)));
      expect(response.status, JSON.stringify(step)).toBe(204);
    }
    expect(await installedAt(order)).toBeNull();
    expect(await lineJobCount()).toBe(0);
    expect(logged.filter((entry) => entry.msg === "ES2+ download progress noted")).toHaveLength(
      others.length,
    );
    expect(JSON.stringify(logged)).not.toContain(iccids[0]);
  });

  it("does not undo an installation when the profile is later deleted", async () => {
    const { order, iccids } = await esimOrder();
    await send(post(notification(iccids[0])));
    const installed = await installedAt(order);
    await send(post(notification(iccids[0], { notificationPointId: 5 })));
    expect(await installedAt(order)).toBe(installed);
    expect((await activationJob(order))?.state).toBe("pending");
  });

  it("refuses a call without the agreed secret with 401 and an ES2+ failure, changing nothing", async () => {
    const { order, iccids } = await esimOrder();
    for (const authorization of [
      null,
      "Bearer wrong-secret",
      `Basic ${SECRET}`,
      `Bearer ${SECRET}x`,
      `Bearer ${SECRET.slice(0, -1)}`,
    ]) {
      const response = await send(post(notification(iccids[0]), authorization));
      expect(response.status, String(authorization)).toBe(401);
      const body = (await response.json()) as {
        header: { functionExecutionStatus: { status: string; statusCodeData: object } };
      };
      expect(body.header.functionExecutionStatus.status).toBe("Failed");
      expect(body.header.functionExecutionStatus.statusCodeData).toMatchObject({
        subjectCode: expect.any(String),
        reasonCode: expect.any(String),
        message: expect.stringMatching(/^Notificación rechazada/),
      });
    }
    expect(await installedAt(order)).toBeNull();
    expect(await lineJobCount()).toBe(0);
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });

  it("refuses a malformed body with 400 and an ES2+ failure, never a 500", async () => {
    const { order, iccids } = await esimOrder();
    const valid = notification(iccids[0]);
    const { iccid: _iccid, ...withoutIccid } = valid;
    for (const body of [
      "",
      "{not json",
      "null",
      "[]",
      JSON.stringify({ ...valid, header: undefined }),
      JSON.stringify(withoutIccid),
      JSON.stringify({ ...valid, iccid: "8952-not-an-iccid" }),
      JSON.stringify({
        ...valid,
        iccid: `${iccids[0].slice(0, -1)}${(Number(iccids[0].at(-1)) + 1) % 10}`,
      }),
      JSON.stringify({ ...valid, notificationPointId: 4.5 }),
      JSON.stringify({ ...valid, notificationPointId: "four" }),
      JSON.stringify({ ...valid, notificationPointStatus: { status: "Done" } }),
      JSON.stringify({ ...valid, notificationPointStatus: "Executed-Success" }),
    ]) {
      const response = await send(post(body));
      expect(response.status, body).toBe(400);
      const answer = (await response.json()) as {
        header: { functionExecutionStatus: { status: string } };
      };
      expect(answer.header.functionExecutionStatus.status).toBe("Failed");
    }
    expect(await installedAt(order)).toBeNull();
  });

  it("is not there when the eSIM codes come from the sandbox", async () => {
    const { order, iccids } = await esimOrder();
    const response = await send(
      post(notification(iccids[0])),
      context({ ESIM_PROVIDER: "sandbox", ES2PLUS_NOTIFICATION_SECRET: undefined }),
    );
    expect(response.status).toBe(404);
    expect(await installedAt(order)).toBeNull();
  });
});
