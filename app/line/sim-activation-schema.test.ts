import { describe, expect, it } from "vitest";
import { misprintedIccid, testIccid } from "../../tests/support/iccids";
import { simActivationSchema } from "./sim-activation-schema";

const errorOf = (iccid: unknown) => {
  const result = simActivationSchema.safeParse({ iccid });
  return result.success ? null : result.error.issues.map((issue) => issue.message);
};

describe("the ICCID typed at /activar", () => {
  it("takes it as printed, grouped with spaces or dashes", () => {
    const iccid = testIccid(7);
    const grouped = `${iccid.slice(0, 4)} ${iccid.slice(4, 8)}-${iccid.slice(8)}`;
    expect(simActivationSchema.parse({ iccid: grouped })).toEqual({ iccid });
  });

  it.each([
    [undefined, "activation:errors.iccidRequired"],
    ["  ", "activation:errors.iccidRequired"],
    ["8952", "activation:errors.iccidFormat"],
    ["1234567890123456789", "activation:errors.iccidFormat"],
    ["89520100000000000O7", "activation:errors.iccidFormat"],
    [misprintedIccid(7), "activation:errors.iccidCheck"],
  ])("refuses %j with one message", (iccid, key) => {
    expect(errorOf(iccid)).toEqual([key]);
  });
});
