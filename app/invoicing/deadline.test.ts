import { describe, expect, it } from "vitest";
import { invoicingDeadline, invoicingLastDay, isInvoicingOpen } from "./deadline";

describe("how long a payment may be invoiced", () => {
  it("runs to the end of the month after the payment, in Mexico City", () => {
    // Paid on 15 November (Mexico City): open until 31 December 23:59:59.999 there (UTC−6).
    expect(invoicingDeadline("2026-11-15T18:00:00Z", 1)).toBe("2027-01-01T06:00:00.000Z");
    expect(isInvoicingOpen("2026-11-15T18:00:00Z", 1, new Date("2027-01-01T05:59:59Z"))).toBe(true);
    expect(isInvoicingOpen("2026-11-15T18:00:00Z", 1, new Date("2027-01-01T06:00:00Z"))).toBe(
      false,
    );
  });

  it("counts the payment's month in Mexico City, not in UTC", () => {
    // 1 December 03:00 UTC is still 30 November in Mexico City.
    expect(invoicingDeadline("2026-12-01T03:00:00Z", 1)).toBe("2027-01-01T06:00:00.000Z");
    expect(invoicingDeadline("2026-12-01T07:00:00Z", 1)).toBe("2027-02-01T06:00:00.000Z");
  });

  it("takes another number of months, 0 being the payment's month only", () => {
    expect(invoicingDeadline("2026-03-10T12:00:00Z", 0)).toBe("2026-04-01T06:00:00.000Z");
    expect(invoicingDeadline("2026-03-10T12:00:00Z", 12)).toBe("2027-04-01T06:00:00.000Z");
    // Across a year's end.
    expect(invoicingDeadline("2026-12-20T12:00:00Z", 2)).toBe("2027-03-01T06:00:00.000Z");
  });

  it("uses the offset of the time, including the years with daylight saving time", () => {
    // In 2021 Mexico City kept summer time (UTC−5) until 31 October.
    expect(invoicingDeadline("2021-08-10T12:00:00Z", 1)).toBe("2021-10-01T05:00:00.000Z");
  });

  it("is told as its last day, the deadline being the next day's first instant (issue 48)", () => {
    // Paid on 10 December: open until 31 January, not "1 de febrero a las 12:00 a.m.".
    expect(invoicingLastDay(invoicingDeadline("2026-12-10T18:00:00Z", 1))).toBe("2027-01-31");
    expect(invoicingLastDay(invoicingDeadline("2027-01-10T18:00:00Z", 1))).toBe("2027-02-28");
    expect(invoicingLastDay(invoicingDeadline("2021-08-10T12:00:00Z", 1))).toBe("2021-09-30");
  });
});
