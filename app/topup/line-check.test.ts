import { describe, expect, it } from "vitest";
import { BssRefused, BssUnavailable } from "~/line/bss";
import type { Line, LineStatus } from "~/line/line";
import { topupLineProblem } from "./line-check";

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
      await topupLineProblem(
        answering(async () => lineOf("active")),
        "5512345678",
      ),
    ).toBe(null);
    for (const status of ["suspended", "porting", "terminated"] as const) {
      expect(
        await topupLineProblem(
          answering(async () => lineOf(status)),
          "5512345678",
        ),
      ).toBe(status);
    }
  });

  it("is unknown when the BSS does not know the number, or refuses the question", async () => {
    expect(
      await topupLineProblem(
        answering(async () => null),
        "5512345678",
      ),
    ).toBe("unknown");
    const refusing = answering(async () => {
      throw new BssRefused("no", { reason: "rejected", httpStatus: 400 });
    });
    expect(await topupLineProblem(refusing, "5512345678")).toBe("unknown");
  });

  it("lets the BSS out of reach through to the form", async () => {
    const down = answering(async () => {
      throw new BssUnavailable("down", { reason: "timeout" });
    });
    await expect(topupLineProblem(down, "5512345678")).rejects.toMatchObject({
      name: "BssUnavailable",
    });
  });
});
