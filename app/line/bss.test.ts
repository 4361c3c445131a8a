import { describe, expect, it } from "vitest";
import {
  assertLineNumber,
  BssRefused,
  BssUnavailable,
  isBssRefused,
  isBssUnavailable,
} from "./bss";

describe("BSS errors", () => {
  it("are told apart by name, as a copy of the class from another bundle is", () => {
    const unavailable = new BssUnavailable("TMF637 product: HTTP 503", {
      reason: "http-status",
      httpStatus: 503,
    });
    const refused = new BssRefused("unknown number", { reason: "unknown-number" });
    expect(isBssUnavailable(unavailable)).toBe(true);
    expect(isBssRefused(unavailable)).toBe(false);
    expect(isBssRefused(refused)).toBe(true);
    expect(isBssUnavailable(refused)).toBe(false);

    const fromAnotherBundle = Object.assign(new Error("down"), { name: "BssUnavailable" });
    expect(isBssUnavailable(fromAnotherBundle)).toBe(true);
    expect(isBssUnavailable(new Error("down"))).toBe(false);
    expect(isBssRefused("BssRefused")).toBe(false);
  });

  it("carry why, for the Spanish message and the operator's logs", () => {
    expect(new BssUnavailable("x", { reason: "timeout" })).toMatchObject({
      reason: "timeout",
      httpStatus: null,
    });
    expect(
      new BssRefused("x", {
        reason: "rejected",
        httpStatus: 400,
        detail: { code: "60", reason: "Bad", message: null },
      }),
    ).toMatchObject({ reason: "rejected", httpStatus: 400, detail: { code: "60" } });
  });
});

describe("a line number given to the BSS", () => {
  it("is ten digits or a caller's bug", () => {
    expect(() => assertLineNumber("5512345678")).not.toThrow();
    expect(() => assertLineNumber("55 1234 5678")).toThrow(TypeError);
    expect(() => assertLineNumber(undefined)).toThrow(TypeError);
  });
});
