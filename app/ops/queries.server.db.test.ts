import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { schedulePortability, rejectPortability, shipOrder } from "./changes.server";
import { normaliseFolio } from "~/db/folio";
import { addDaysToDate, todayInMexico } from "~/lib/mexico-city-days";
import { queueLineJob, topupJobId } from "~/line/line-jobs.server";
import { TOPUP_COLUMNS } from "./format";
import {
  findByFolio,
  listOrders,
  listPortabilityRequests,
  listTopups,
  statusHistory,
  subjectOfFolio,
} from "./queries.server";
import {
  makeOrder,
  makePortabilityRequest,
  makeTopup,
  seedCatalogue,
} from "../../tests/support/store-fixtures";

let db: Db;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await seedCatalogue(db);
});
afterEach(async () => {
  await db.destroy();
});

const ACTOR = "ops:ana";
const folios = (rows: { folio: string }[]) => rows.map((row) => row.folio);

describe("listing orders", () => {
  it("gives what the operator needs, newest first, with the lines and the shipping address", async () => {
    const first = await makeOrder(db, { createdAt: "2026-03-01T18:00:00.000Z" });
    const second = await makeOrder(db, {
      simType: "esim",
      fullName: "Carlos Ruiz",
      email: "carlos@example.com",
      createdAt: "2026-03-02T18:00:00.000Z",
    });
    const rows = await listOrders(db);
    expect(folios(rows)).toEqual([second.folio, first.folio]);
    expect(rows[1]).toMatchObject({
      ref: first.ref,
      status: "paid",
      total: 300,
      fullName: "Ana López",
      email: "ana@example.com",
      phoneNumber: "5512345678",
      simType: "physical",
      lines: "2× Conecta 150",
      address: "Av. Insurgentes Sur 1234 int. 5, Del Valle, C.P. 03100, Benito Juárez, CMX",
      shippedAt: null,
      trackingNumber: null,
    });
    expect(rows[0]).toMatchObject({ simType: "esim", address: null, fullName: "Carlos Ruiz" });
  });

  it("filters by Mexico City days, both ends included", async () => {
    // 2026-03-09 23:59 and 2026-03-10 00:00 in Mexico City.
    const late = await makeOrder(db, { createdAt: "2026-03-10T05:59:00.000Z" });
    const midnight = await makeOrder(db, { createdAt: "2026-03-10T06:00:00.000Z" });
    const endOfDay = await makeOrder(db, { createdAt: "2026-03-11T05:59:59.999Z" });
    const next = await makeOrder(db, { createdAt: "2026-03-11T06:00:00.000Z" });
    expect(folios(await listOrders(db, { from: "2026-03-10", to: "2026-03-10" }))).toEqual([
      endOfDay.folio,
      midnight.folio,
    ]);
    expect(folios(await listOrders(db, { to: "2026-03-09" }))).toEqual([late.folio]);
    expect(folios(await listOrders(db, { from: "2026-03-11" }))).toEqual([next.folio]);
    await expect(listOrders(db, { from: "2026-03-11", to: "2026-03-10" })).rejects.toThrow(
      RangeError,
    );
  });

  it("filters by status, where a shipped order is no longer among the paid ones", async () => {
    const shipped = await makeOrder(db);
    const paid = await makeOrder(db);
    const pending = await makeOrder(db, { paid: false });
    const esim = await makeOrder(db, { simType: "esim" });
    await shipOrder(db, shipped.folio, { carrier: "DHL", trackingNumber: "JD01", actor: ACTOR });
    const byStatus = async (status: Parameters<typeof listOrders>[1]) =>
      folios(await listOrders(db, status)).sort();
    expect(await byStatus({ status: "shipped" })).toEqual([shipped.folio]);
    expect(await byStatus({ status: "paid" })).toEqual([paid.folio, esim.folio].sort());
    expect(await byStatus({ status: "paid", simType: "physical" })).toEqual([paid.folio]);
    expect(await byStatus({ status: "pending_payment" })).toEqual([pending.folio]);
    expect(await byStatus({ status: "cancelled" })).toEqual([]);
    const [row] = await listOrders(db, { status: "shipped" });
    expect(row).toMatchObject({ status: "shipped", carrier: "DHL", trackingNumber: "JD01" });
    expect(row.shippedAt).not.toBeNull();
  });
});

describe("listing top-ups", () => {
  it("lists by date and status, newest first", async () => {
    const old = await makeTopup(db, { createdAt: "2026-02-01T18:00:00.000Z" });
    const unpaid = await makeTopup(db, { paid: false, createdAt: "2026-03-01T18:00:00.000Z" });
    const rows = await listTopups(db);
    expect(folios(rows)).toEqual([unpaid.folio, old.folio]);
    expect(rows[1]).toMatchObject({
      id: old.id,
      status: "paid",
      amount: 100,
      phoneNumber: "5587654321",
      email: "carlos@example.com",
    });
    expect(folios(await listTopups(db, { status: "paid" }))).toEqual([old.folio]);
    expect(folios(await listTopups(db, { from: "2026-02-15" }))).toEqual([unpaid.folio]);
  });

  it("says whether each paid top-up reached its line, and why the BSS refused one", async () => {
    const applied = await makeTopup(db);
    const waiting = await makeTopup(db);
    const refused = await makeTopup(db);
    const unpaid = await makeTopup(db, { paid: false });
    const now = new Date();
    for (const topup of [applied, waiting, refused]) {
      await queueLineJob(db, {
        id: topupJobId(topup.id),
        kind: "apply-topup",
        payload: {
          topupId: topup.id,
          number: topup.phoneNumber,
          amount: 100,
          offerId: "conecta-100",
        },
        now,
      });
    }
    await db
      .updateTable("line_jobs")
      .set({ state: "done" })
      .where("id", "=", topupJobId(applied.id))
      .execute();
    await db
      .updateTable("line_jobs")
      .set({ state: "refused", attempts: 1, last_error: "refused: line-not-active" })
      .where("id", "=", topupJobId(refused.id))
      .execute();
    const byFolio = new Map((await listTopups(db)).map((row) => [row.folio, row]));
    expect(byFolio.get(applied.folio)?.lineJob).toEqual({
      state: "done",
      attempts: 0,
      error: null,
    });
    expect(byFolio.get(waiting.folio)?.lineJob).toMatchObject({ state: "pending" });
    expect(byFolio.get(refused.folio)?.lineJob).toEqual({
      state: "refused",
      attempts: 1,
      error: "refused: line-not-active",
    });
    expect(byFolio.get(unpaid.folio)?.lineJob).toBeNull();
    const column = TOPUP_COLUMNS.find((candidate) => candidate.header === "En la línea")!;
    expect(column.table!(byFolio.get(refused.folio)!)).toBe(
      "Rechazada por el BSS: line-not-active",
    );
    expect(column.table!(byFolio.get(applied.folio)!)).toBe("Aplicada");
    expect(column.table!(byFolio.get(unpaid.folio)!)).toBe("—");
  });
});

describe("listing portability requests", () => {
  it("shows the scheduled date and the rejection reason, never the NIP", async () => {
    const scheduled = await makePortabilityRequest(db);
    const rejected = await makePortabilityRequest(db);
    const received = await makePortabilityRequest(db);
    const date = addDaysToDate(todayInMexico(), 2);
    await schedulePortability(db, scheduled.folio, { date, actor: ACTOR });
    await rejectPortability(db, rejected.folio, { reason: "Número dado de baja", actor: ACTOR });
    const rows = await listPortabilityRequests(db);
    expect(folios(rows).sort()).toEqual([scheduled.folio, rejected.folio, received.folio].sort());
    expect(rows.find((row) => row.folio === scheduled.folio)).toMatchObject({
      status: "in_progress",
      scheduledFor: date,
      fullName: "Beatriz Gómez Martínez",
      currentCarrier: "telcel",
    });
    expect(rows.find((row) => row.folio === rejected.folio)).toMatchObject({
      status: "rejected",
      rejectionReason: "Número dado de baja",
    });
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toMatch(/nip|4821/i);
    }
    expect(folios(await listPortabilityRequests(db, { status: "received" }))).toEqual([
      received.folio,
    ]);
  });
});

describe("folios and history", () => {
  it("knows each series and tolerates how a folio is typed", () => {
    expect(subjectOfFolio("PED-2026-000001")).toBe("order");
    expect(subjectOfFolio("REC-2026-000001")).toBe("topup");
    expect(subjectOfFolio("POR-2026-000001")).toBe("portability");
    expect(subjectOfFolio("XYZ-2026-000001")).toBeNull();
    expect(normaliseFolio(" por-2026-000001\n")).toBe("POR-2026-000001");
  });

  it("finds a record by folio, with its current status", async () => {
    const order = await makeOrder(db);
    const topup = await makeTopup(db);
    expect(await findByFolio(db, order.folio.toLowerCase())).toMatchObject({
      subject: "order",
      id: order.ref,
      status: "paid",
    });
    expect(await findByFolio(db, topup.folio)).toMatchObject({ subject: "topup", id: topup.id });
    expect(await findByFolio(db, "PED-2026-999999")).toBeNull();
    expect(await findByFolio(db, "hola")).toBeNull();
  });

  it("tells a record's changes, oldest first", async () => {
    const request = await makePortabilityRequest(db);
    const date = todayInMexico();
    await schedulePortability(db, request.folio, { date, actor: ACTOR });
    await rejectPortability(db, request.folio, { reason: "El NIP venció", actor: "ops:beto" });
    const history = await statusHistory(db, request.folio);
    expect(history).toMatchObject({
      subject: "portability",
      id: request.id,
      folio: request.folio,
      status: "rejected",
    });
    expect(history?.changes).toMatchObject([
      {
        fromStatus: "received",
        toStatus: "in_progress",
        detail: { scheduledFor: date },
        reason: null,
        actor: ACTOR,
      },
      {
        fromStatus: "in_progress",
        toStatus: "rejected",
        detail: null,
        reason: "El NIP venció",
        actor: "ops:beto",
      },
    ]);
    expect(await statusHistory(db, "POR-2026-999999")).toBeNull();
  });
});
