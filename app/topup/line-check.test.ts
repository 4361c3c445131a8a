import { describe, expect, it } from "vitest";
import { BssRefused, BssUnavailable } from "~/line/bss";
import type { Line, LineStatus } from "~/line/line";
import { checkTopupLine } from "./line-check";

function lineOf(status: LineStatus): Line {
  return {
    number: "5512345678",
    status,
    package: null,
    balances: { moneyMxn: 0, dataMb: null, socialDataMb: null, minutes: null, sms: null },
  };
}

const answering = (answer: () => Promise<Line | null>) => ({ findLine: answer });

describe("the line a top-up is for", () => {
  it("is fine when active, and says why not otherwise", async () => {
    expect(
      await checkTopupLine(
        answering(async () => lineOf("active")),
        "5512345678",
      ),
    ).toEqual({
      kind: "ok",
    });
    for (const status of ["suspended", "porting", "terminated"] as const) {
      expect(
        await checkTopupLine(
          answering(async () => lineOf(status)),
          "5512345678",
        ),
      ).toEqual({
        kind: "problem",
        problem: status,
      });
    }
  });

  it("takes a top-up to a line suspended for want of a registration, with a warning", async () => {
    expect(
      await checkTopupLine(
        answering(async () => lineOf("unregistered")),
        "5512345678",
      ),
    ).toEqual({ kind: "unregistered" });
  });

  it("is unknown when the BSS does not know the number, or refuses the question", async () => {
    expect(
      await checkTopupLine(
        answering(async () => null),
        "5512345678",
      ),
    ).toEqual({
      kind: "problem",
      problem: "unknown",
    });
    const refusing = answering(async () => {
      throw new BssRefused("no", { reason: "rejected", httpStatus: 400 });
    });
    expect(await checkTopupLine(refusing, "5512345678")).toEqual({
      kind: "problem",
      problem: "unknown",
    });
  });

  it("lets the BSS out of reach through to the form", async () => {
    const down = answering(async () => {
      throw new BssUnavailable("down", { reason: "timeout" });
    });
    await expect(checkTopupLine(down, "5512345678")).rejects.toMatchObject({
      name: "BssUnavailable",
    });
  });
});
