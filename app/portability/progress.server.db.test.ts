import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChangeResult } from "~/audit/status-changes.server";
import type { Db } from "~/db/db.server";
import { addDaysToDate, todayInMexico } from "~/lib/mexico-city-days";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { shipOrder } from "~/checkout/shipping.server";
import { testIccid } from "../../tests/support/iccids";
import {
  makeOrder,
  makePortabilityRequest,
  queuedMail,
  seedCatalogue,
  statusChanges,
} from "../../tests/support/store-fixtures";
import { completePortability, rejectPortability, schedulePortability } from "./progress.server";

let db: Db;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await seedCatalogue(db);
});
afterEach(async () => {
  await db.destroy();
});

const ACTOR = "ops:ana";
const today = todayInMexico();
const tomorrow = addDaysToDate(today, 1);

function refusal(result: ChangeResult) {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

function applied(result: ChangeResult) {
  if (!result.ok) throw new Error(`expected a change, got: ${result.message}`);
  return result;
}

describe("moving a portability request", () => {
  it("schedules a received request for a date, audited, with the customer's e-mail", async () => {
    const request = await makePortabilityRequest(db);
    const result = applied(
      await schedulePortability(db, request.folio, { date: tomorrow, actor: ACTOR }),
    );
    expect(result).toMatchObject({
      subject: "portability",
      fromStatus: "received",
      toStatus: "in_progress",
      detail: { scheduledFor: tomorrow },
      mailQueued: true,
    });
    const row = await db
      .selectFrom("portability_requests")
      .select(["status", "scheduled_for", "updated_at"])
      .where("id", "=", request.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: "in_progress",
      scheduled_for: tomorrow,
      updated_at: result.changedAt,
    });
    expect(await statusChanges(db)).toMatchObject([
      {
        subject: "portability",
        subject_id: request.id,
        from_status: "received",
        to_status: "in_progress",
        detail: JSON.stringify({ scheduledFor: tomorrow }),
        reason: null,
        actor: ACTOR,
      },
    ]);
    expect(await queuedMail(db)).toEqual([
      {
        dedupeKey: `portability-in_progress:${request.id}`,
        to: "beatriz@example.mx",
        template: "portability_status",
        data: { requestId: request.id, status: "in_progress" },
      },
    ]);
  });

  it("schedules for today, and re-schedules with an e-mail of its own", async () => {
    const request = await makePortabilityRequest(db);
    applied(await schedulePortability(db, request.folio, { date: today, actor: ACTOR }));
    const moved = applied(
      await schedulePortability(db, request.folio, {
        date: tomorrow,
        reason: "El cliente pidió otro día",
        actor: ACTOR,
      }),
    );
    expect(moved).toMatchObject({ fromStatus: "in_progress", toStatus: "in_progress" });
    const mail = await queuedMail(db);
    expect(mail).toHaveLength(2);
    expect(mail[1].dedupeKey).toMatch(
      new RegExp(`^portability-in_progress:${request.id}:[\\w-]+$`),
    );
    const changes = await statusChanges(db);
    expect(mail[1].dedupeKey).toBe(`portability-in_progress:${request.id}:${changes[1].id}`);
    expect(changes[1].reason).toBe("El cliente pidió otro día");
  });

  it("refuses the same date again, a past date and a malformed one", async () => {
    const request = await makePortabilityRequest(db);
    applied(await schedulePortability(db, request.folio, { date: tomorrow, actor: ACTOR }));
    expect(
      refusal(await schedulePortability(db, request.folio, { date: tomorrow, actor: ACTOR })).code,
    ).toBe("already_scheduled");
    const past = refusal(
      await schedulePortability(db, request.folio, {
        date: addDaysToDate(today, -1),
        actor: ACTOR,
      }),
    );
    expect(past.code).toBe("date_in_past");
    expect(past.message).toContain(`hoy es ${today}`);
    for (const date of ["2026-02-30", "10/03/2026", ""]) {
      expect(
        refusal(await schedulePortability(db, request.folio, { date, actor: ACTOR })).code,
      ).toBe("invalid_input");
    }
    expect(await statusChanges(db)).toHaveLength(1);
    expect(await queuedMail(db)).toHaveLength(1);
  });

  it("reads today in Mexico City: late evening there is already tomorrow in UTC", async () => {
    const request = await makePortabilityRequest(db);
    // 2026-03-10 23:30 in Mexico City (UTC-6) is 2026-03-11 05:30 UTC.
    const now = new Date("2026-03-11T05:30:00Z");
    applied(
      await schedulePortability(db, request.folio, { date: "2026-03-10", actor: ACTOR, now }),
    );
  });

  it("gives a record's changes increasing times, even within one millisecond", async () => {
    const request = await makePortabilityRequest(db);
    const frozen = "2026-03-10T18:00:00.000Z";
    vi.useFakeTimers({ now: new Date(frozen), toFake: ["Date"] });
    try {
      const first = applied(
        await schedulePortability(db, request.folio, { date: "2026-03-20", actor: ACTOR }),
      );
      const second = applied(
        await schedulePortability(db, request.folio, { date: "2026-03-21", actor: ACTOR }),
      );
      const third = applied(await completePortability(db, request.folio, { actor: ACTOR }));
      expect([first.changedAt, second.changedAt, third.changedAt]).toEqual([
        frozen,
        "2026-03-10T18:00:00.001Z",
        "2026-03-10T18:00:00.002Z",
      ]);
    } finally {
      vi.useRealTimers();
    }
    expect((await statusChanges(db)).map((change) => change.to_status)).toEqual([
      "in_progress",
      "in_progress",
      "completed",
    ]);
  });

  it("completes a scheduled request, once", async () => {
    const request = await makePortabilityRequest(db);
    applied(await schedulePortability(db, request.folio, { date: today, actor: ACTOR }));
    const done = applied(
      await completePortability(db, request.folio, {
        reason: "Portado sin incidencias",
        actor: ACTOR,
      }),
    );
    expect(done).toMatchObject({ fromStatus: "in_progress", toStatus: "completed", detail: null });
    const again = refusal(await completePortability(db, request.folio, { actor: ACTOR }));
    expect(again.code).toBe("wrong_status");
    expect(again.message).toContain("completada");
    const mail = await queuedMail(db);
    expect(mail.map((entry) => entry.dedupeKey)).toEqual([
      `portability-in_progress:${request.id}`,
      `portability-completed:${request.id}`,
    ]);
    expect(mail[1].data).toEqual({ requestId: request.id, status: "completed" });
    expect((await statusChanges(db)).map((change) => change.to_status)).toEqual([
      "in_progress",
      "completed",
    ]);
  });

  it("does not complete a request that was never scheduled", async () => {
    const request = await makePortabilityRequest(db);
    const result = refusal(await completePortability(db, request.folio, { actor: ACTOR }));
    expect(result.code).toBe("wrong_status");
    expect(result.message).toContain("prográmala");
  });

  it.each([
    ["received", false],
    ["scheduled", true],
  ])("rejects a %s request with the reason the customer reads", async (_name, scheduled) => {
    const request = await makePortabilityRequest(db);
    if (scheduled) {
      applied(await schedulePortability(db, request.folio, { date: tomorrow, actor: ACTOR }));
    }
    const reason = "El NIP no corresponde al número.\n Solicita uno nuevo al 051.";
    const result = applied(await rejectPortability(db, request.folio, { reason, actor: ACTOR }));
    const text = "El NIP no corresponde al número. Solicita uno nuevo al 051.";
    expect(result).toMatchObject({
      fromStatus: scheduled ? "in_progress" : "received",
      toStatus: "rejected",
      reason: text,
    });
    const row = await db
      .selectFrom("portability_requests")
      .select(["status", "rejection_reason"])
      .where("id", "=", request.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "rejected", rejection_reason: text });
    const changes = await statusChanges(db);
    expect(changes.at(-1)).toMatchObject({ to_status: "rejected", reason: text, actor: ACTOR });
    const mail = await queuedMail(db);
    expect(mail.at(-1)).toEqual({
      dedupeKey: `portability-rejected:${request.id}`,
      to: "beatriz@example.mx",
      template: "portability_status",
      data: { requestId: request.id, status: "rejected" },
    });
  });

  it("refuses a rejection without a real reason, and anything after the end", async () => {
    const request = await makePortabilityRequest(db);
    for (const reason of ["", "   ", "no"]) {
      expect(
        refusal(await rejectPortability(db, request.folio, { reason, actor: ACTOR })).code,
      ).toBe("invalid_input");
    }
    applied(
      await rejectPortability(db, request.folio, { reason: "Número dado de baja", actor: ACTOR }),
    );
    for (const result of [
      await rejectPortability(db, request.folio, { reason: "Otra vez rechazada", actor: ACTOR }),
      await schedulePortability(db, request.folio, { date: tomorrow, actor: ACTOR }),
      await completePortability(db, request.folio, { actor: ACTOR }),
    ]) {
      expect(refusal(result).code).toBe("wrong_status");
    }
    expect(await statusChanges(db)).toHaveLength(1);
    expect(await queuedMail(db)).toHaveLength(1);
  });

  it("refuses a reason the customer would read with an escape sequence or a bidi override", async () => {
    const request = await makePortabilityRequest(db);
    for (const reason of ["Número \u001B[31mdado de baja", "Número dado de \u202Eajab"]) {
      expect(
        refusal(await rejectPortability(db, request.folio, { reason, actor: ACTOR })),
      ).toMatchObject({
        code: "invalid_input",
        message:
          "El motivo del rechazo (lo lee el cliente) tiene caracteres de control o de dirección de texto; escríbelo sin ellos.",
      });
    }
    expect(await statusChanges(db)).toHaveLength(0);
  });

  it("refuses an unknown folio", async () => {
    const result = refusal(
      await rejectPortability(db, "POR-2026-424242", { reason: "No procede", actor: ACTOR }),
    );
    expect(result).toMatchObject({
      code: "not_found",
      message: "No existe la solicitud de portabilidad POR-2026-424242.",
    });
  });

  it("never overwrites a change made meanwhile: the update checks the status it read", async () => {
    const request = await makePortabilityRequest(db);
    // Another operator rejects the request between this change's read and its write.
    const original = db.transaction.bind(db);
    let raced = false;
    db.transaction = (() => {
      const builder = original();
      return {
        async execute<T>(work: Parameters<typeof builder.execute<T>>[0]) {
          if (!raced) {
            raced = true;
            await db
              .updateTable("portability_requests")
              .set({ status: "rejected" })
              .where("id", "=", request.id)
              .execute();
          }
          return builder.execute(work);
        },
      };
    }) as unknown as typeof db.transaction;
    const result = refusal(
      await schedulePortability(db, request.folio, { date: tomorrow, actor: ACTOR }),
    );
    expect(raced).toBe(true);
    expect(result.code).toBe("wrong_status");
    expect(result.message).toContain("rechazada");
    expect(await statusChanges(db)).toEqual([]);
    expect(await queuedMail(db)).toEqual([]);
  });
});

describe("a completed port's line", () => {
  /** A physical SIM of a Conecta 500 order shipped with this ICCID. */
  async function shippedSim(iccid: string) {
    const order = await makeOrder(db, { items: [{ id: "conecta-500", quantity: 1 }] });
    applied(
      await shipOrder(db, order.folio, { trackingNumber: "1", iccids: [iccid], actor: ACTOR }),
    );
    return order;
  }

  async function scheduled(fixture: Parameters<typeof makePortabilityRequest>[1] = {}) {
    const request = await makePortabilityRequest(db, fixture);
    applied(await schedulePortability(db, request.folio, { date: today, actor: ACTOR }));
    return request;
  }

  const jobs = () => db.selectFrom("line_jobs").selectAll().orderBy("id").execute();

  it("is queued with the completion: the ported number on the request's SIM, for the requester's account", async () => {
    await shippedSim(testIccid(501));
    const request = await scheduled({ iccid: testIccid(501), customerSub: "sub-beatriz" });
    const done = await completePortability(db, request.folio, { actor: ACTOR });
    expect(done).toMatchObject({
      ok: true,
      toStatus: "completed",
      portIn: { kind: "queued", iccid: testIccid(501), accountSub: "sub-beatriz" },
    });
    const [job] = await jobs();
    expect(job).toMatchObject({
      id: `activation:portability:${request.id}`,
      kind: "activate-line",
      state: "pending",
    });
    expect(JSON.parse(job!.payload)).toEqual({
      externalId: `portability:${request.id}`,
      iccid: testIccid(501),
      offerId: "conecta-500",
      number: request.phoneNumber,
      accountSub: "sub-beatriz",
      source: "portability",
      sourceRef: request.id,
    });
  });

  it("goes to the SIM's buyer when the request was made without an account", async () => {
    const order = await shippedSim(testIccid(502));
    await db
      .updateTable("orders")
      .set({ customer_sub: "sub-ana" })
      .where("id", "=", order.ref)
      .execute();
    const request = await scheduled({ iccid: testIccid(502) });
    const done = await completePortability(db, request.folio, { actor: ACTOR });
    expect(done).toMatchObject({ portIn: { kind: "queued", accountSub: "sub-ana" } });
  });

  it("waits for an ICCID when the request has none, then is queued with the one the operator gives", async () => {
    await shippedSim(testIccid(503));
    const request = await scheduled();
    expect(await completePortability(db, request.folio, { actor: ACTOR })).toMatchObject({
      ok: true,
      portIn: { kind: "no-iccid" },
    });
    expect(await jobs()).toEqual([]);
    const later = await completePortability(db, request.folio, {
      iccid: `${testIccid(503).slice(0, 4)} ${testIccid(503).slice(4)}`,
      actor: ACTOR,
    });
    expect(later).toMatchObject({
      ok: true,
      fromStatus: "completed",
      toStatus: "completed",
      detail: { iccid: testIccid(503) },
      mailQueued: false,
      portIn: { kind: "queued", iccid: testIccid(503) },
    });
    expect(await jobs()).toHaveLength(1);
    const row = await db
      .selectFrom("portability_requests")
      .select("iccid")
      .where("id", "=", request.id)
      .executeTakeFirstOrThrow();
    expect(row.iccid).toBe(testIccid(503));
    const again = refusal(
      await completePortability(db, request.folio, { iccid: testIccid(503), actor: ACTOR }),
    );
    expect(again.message).toMatch(/ya se está activando o está activa/);
    expect(await jobs()).toHaveLength(1);
    expect((await queuedMail(db)).map((mail) => mail.dedupeKey)).toEqual([
      `portability-in_progress:${request.id}`,
      `portability-completed:${request.id}`,
    ]);
  });

  it("is not queued for a SIM the store did not sell (no plan to start it with)", async () => {
    const request = await scheduled({ iccid: testIccid(504) });
    expect(await completePortability(db, request.folio, { actor: ACTOR })).toMatchObject({
      ok: true,
      portIn: { kind: "unknown-sim", iccid: testIccid(504) },
    });
    expect(await jobs()).toEqual([]);
  });

  it("refuses an ICCID that is not one, or not the request's", async () => {
    const request = await scheduled({ iccid: testIccid(505) });
    expect(
      refusal(await completePortability(db, request.folio, { iccid: "8952", actor: ACTOR }))
        .message,
    ).toMatch(/^El ICCID 8952 no es válido/);
    expect(
      refusal(await completePortability(db, request.folio, { iccid: testIccid(506), actor: ACTOR }))
        .message,
    ).toBe(`La solicitud ${request.folio} ya tiene el ICCID ${testIccid(505)}; no se cambió nada.`);
    expect((await statusChanges(db)).map((change) => change.to_status)).toEqual(["in_progress"]);
  });
});
