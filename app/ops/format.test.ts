import { describe, expect, it } from "vitest";
import { hasControlCharacters } from "~/lib/control-characters";
import type { AppliedChange } from "./changes.server";
import { toCsv } from "./csv";
import {
  ORDER_COLUMNS,
  PORTABILITY_COLUMNS,
  changeText,
  csvRecords,
  historyText,
  listTable,
  renderTable,
} from "./format";
import { statusName } from "./labels";
import type { OrderRow, PortabilityRow } from "./queries.server";

const order: OrderRow = {
  ref: "ref-1",
  folio: "PED-2026-000001",
  createdAt: "2026-03-10T18:05:00.000Z",
  status: "shipped",
  total: 1299,
  fullName: "Ana López",
  email: "ana@example.com",
  phoneNumber: "5512345678",
  simType: "physical",
  lines: "1× Conecta 1299",
  address: "Av. Insurgentes Sur 1234, Del Valle, C.P. 03100, Benito Juárez, CMX",
  paidAt: "2026-03-10T18:06:00.000Z",
  shippedAt: "2026-03-11T16:00:00.000Z",
  carrier: "Estafeta",
  trackingNumber: "1234567890",
};

describe("lists for the operator", () => {
  it("are aligned tables, amounts on the right, long cells cut", () => {
    const text = renderTable(
      ["Folio", "Total", "Nota"],
      [
        ["PED-1", "$99.00", "x".repeat(50)],
        ["PED-22", "$1,299.00", "ñandú"],
      ],
      [false, true, false],
    );
    expect(text.split("\n")).toEqual([
      "Folio       Total  Nota",
      "------  ---------  ----------------------------------------",
      `PED-1      $99.00  ${"x".repeat(39)}…`,
      "PED-22  $1,299.00  ñandú",
      "",
    ]);
  });

  it("never pass a control character to the terminal: each shows as an escape", () => {
    expect(renderTable(["a"], [["x\u001b[2Jy\u009bz\nw\u202e"]])).toBe(
      `a\n${"-".repeat(31)}\nx\\u001B[2Jy\\u009Bz\\u000Aw\\u202E\n`,
    );
  });

  // Text stored before the forms refused control characters (or given by the identity service
  // or the payment provider) reaches the operator as visible escapes, in the table and the CSV.
  describe("a customer's text holding escape sequences, BEL, CR/LF and a bidi override", () => {
    const hostile: OrderRow = {
      ...order,
      fullName: "\u001B[31mAna\u0007\r\nPED-2026-999999\u202Ezepól",
      address: "Calle \u001B]0;hola\u0007 1, \u2066Del Valle\u2069",
    };
    const withoutLineEnds = (text: string) => text.replaceAll("\r\n", "").replaceAll("\n", "");

    it("shows in the table as escapes, on one line", () => {
      const text = listTable(ORDER_COLUMNS, [hostile]);
      expect(hasControlCharacters(withoutLineEnds(text))).toBe(false);
      expect(text.split("\n")).toHaveLength(4);
      expect(text).toContain("\\u001B[31mAna\\u0007\\u000D\\u000APED-2026");
    });

    it("exports to CSV as escapes, one record per row", () => {
      const { headers, records } = csvRecords(ORDER_COLUMNS, [hostile]);
      const text = toCsv(headers, records);
      expect(hasControlCharacters(withoutLineEnds(text))).toBe(false);
      expect(text.split("\r\n")).toHaveLength(3);
      expect(text).toContain("\\u001B[31mAna\\u0007\\u000D\\u000APED-2026-999999\\u202Ezepól,");
      expect(text).toContain('"Calle \\u001B]0;hola\\u0007 1, \\u2066Del Valle\\u2069"');
    });
  });

  it("show orders in Spanish, Mexico City time and pesos", () => {
    const lines = listTable(ORDER_COLUMNS, [order]).split("\n");
    expect(lines[0]).toMatch(
      /^Folio\s+Fecha\s+Estado\s+Total\s+SIM\s+Cliente\s+Teléfono\s+Correo\s+Guía$/,
    );
    expect(lines[2]).toContain("2026-03-10 12:05");
    expect(lines[2]).toContain("Enviado");
    expect(lines[2]).toContain("$1,299.00");
    expect(lines[2]).toContain("Física");
    expect(lines[2]).toContain("Estafeta 1234567890");
  });

  it("export every column to CSV, amounts as numbers", () => {
    const { headers, records } = csvRecords(ORDER_COLUMNS, [order]);
    expect(headers).toEqual([
      "Folio",
      "Fecha",
      "Estado",
      "Total",
      "SIM",
      "Cliente",
      "Teléfono",
      "Correo",
      "Guía",
      "Paquetería",
      "Planes",
      "Dirección de envío",
      "Pagado el",
      "Enviado el",
    ]);
    expect(records).toEqual([
      [
        "PED-2026-000001",
        "2026-03-10 12:05",
        "Enviado",
        1299,
        "Física",
        "Ana López",
        "5512345678",
        "ana@example.com",
        "1234567890",
        "Estafeta",
        "1× Conecta 1299",
        order.address,
        "2026-03-10 12:06",
        "2026-03-11 10:00",
      ],
    ]);
  });

  it("name the carrier a number is ported from", () => {
    const request: PortabilityRow = {
      id: "id-1",
      folio: "POR-2026-000001",
      createdAt: "2026-03-10T18:05:00.000Z",
      updatedAt: "2026-03-10T18:05:00.000Z",
      status: "in_progress",
      phoneNumber: "5511112222",
      fullName: "Beatriz Gómez",
      email: "b@example.mx",
      currentCarrier: "att",
      iccid: null,
      scheduledFor: "2026-03-12",
      rejectionReason: null,
    };
    const [row] = csvRecords(PORTABILITY_COLUMNS, [request]).records;
    expect(row.slice(2, 9)).toEqual([
      "Programada",
      "5511112222",
      "Beatriz Gómez",
      "b@example.mx",
      "AT&T",
      "2026-03-12",
      null,
    ]);
  });
});

describe("status names", () => {
  it("are Spanish, per kind of record", () => {
    expect(statusName("order", "pending_payment")).toBe("Pendiente de pago");
    expect(statusName("topup", "paid")).toBe("Pagada");
    expect(statusName("portability", "in_progress")).toBe("Programada");
    expect(statusName("portability", null)).toBe("—");
  });
});

describe("what the operator is told", () => {
  const change: AppliedChange = {
    ok: true,
    subject: "order",
    id: "ref-1",
    folio: "PED-2026-000001",
    fromStatus: "paid",
    toStatus: "shipped",
    detail: { carrier: "Estafeta", trackingNumber: "1234567890" },
    reason: null,
    actor: "ops:ana",
    changedAt: "2026-03-11T16:00:00.000Z",
    email: "ana@example.com",
    mailQueued: true,
  };

  it("after shipping: what changed, the audit and the queued e-mail", () => {
    expect(changeText(change)).toBe(
      "Pedido PED-2026-000001 marcado como enviado (Estafeta, guía 1234567890).\n" +
        "Registrado en el historial por ops:ana el 2026-03-11 10:00.\n" +
        "Correo al cliente (ana@example.com) en cola: lo envía el servidor en marcha.\n",
    );
  });

  it("after a portability change, with its reason", () => {
    const text = changeText({
      ...change,
      subject: "portability",
      folio: "POR-2026-000001",
      fromStatus: "in_progress",
      toStatus: "rejected",
      detail: null,
      reason: "El NIP venció",
      mailQueued: false,
    });
    expect(text).toContain("Solicitud POR-2026-000001: Programada → Rechazada.");
    expect(text).toContain("Motivo: El NIP venció");
    expect(text).toContain("ya estaba en cola");
    expect(
      changeText({
        ...change,
        subject: "portability",
        folio: "POR-2026-000001",
        fromStatus: "received",
        toStatus: "in_progress",
        detail: { scheduledFor: "2026-03-12" },
      }),
    ).toMatch(/^Solicitud POR-2026-000001 programada para el 2026-03-12\.\n/);
  });

  it("the history of a record", () => {
    const text = historyText({
      subject: "order",
      id: "ref-1",
      folio: "PED-2026-000001",
      status: "shipped",
      createdAt: "2026-03-10T18:05:00.000Z",
      changes: [
        {
          id: "c1",
          fromStatus: "paid",
          toStatus: "shipped",
          detail: { carrier: "Estafeta", trackingNumber: "123" },
          reason: null,
          actor: "ops:ana",
          createdAt: "2026-03-11T16:00:00.000Z",
        },
      ],
    });
    expect(text).toMatch(/^PED-2026-000001 \(pedido del 2026-03-10 12:05\): Enviado\n\n/);
    expect(text).toMatch(/2026-03-11 10:00\s+Pagado → Enviado\s+Estafeta, guía 123\s+ops:ana\n$/);
    expect(
      historyText({
        subject: "topup",
        id: "t",
        folio: "REC-2026-000001",
        status: "paid",
        createdAt: "2026-03-10T18:05:00.000Z",
        changes: [],
      }),
    ).toBe(
      "REC-2026-000001 (recarga del 2026-03-10 12:05): Pagada\nSin cambios hechos con npm run ops.\n",
    );
  });
});
