import { describe, expect, it } from "vitest";
import { isSmsRefused, isSmsUnavailable, prepareSms, SmsRefused, SmsUnavailable } from "./sender";

describe("the SMS errors", () => {
  it("are told apart by name, so a copy of the class from the other bundle counts", () => {
    const fromOtherBundle = Object.assign(new Error("no SMSC"), { name: "SmsUnavailable" });
    expect(isSmsUnavailable(fromOtherBundle)).toBe(true);
    expect(isSmsUnavailable(new SmsUnavailable("x", { reason: "timeout" }))).toBe(true);
    expect(isSmsUnavailable(new SmsRefused("x", { reason: "too-long" }))).toBe(false);
    expect(isSmsRefused(new SmsRefused("x", { reason: "too-long" }))).toBe(true);
    expect(isSmsRefused(new Error("x"))).toBe(false);
    expect(isSmsUnavailable("SmsUnavailable")).toBe(false);
  });
});

describe("preparing an SMS", () => {
  it("refuses a number that is not 10 digits or a text longer than one SMS, naming neither", () => {
    for (const to of ["", "551234567", "55123456789", "+525512345678", "55 1234 5678"]) {
      expect(() => prepareSms({ to, text: "Hola", template: "line_code" }), to).toThrow(
        expect.objectContaining({ name: "SmsRefused", reason: "invalid-number" }),
      );
    }
    const text = "Tu código secreto es 918273. ".repeat(3);
    let refusal: unknown;
    try {
      prepareSms({ to: "5512345678", text, template: "line_code" });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ name: "SmsRefused", reason: "too-long" });
    expect(String(refusal)).not.toContain("918273");
    expect(String(refusal)).not.toContain("5512345678");
  });

  it("refuses a message without a template or a text as a programming error", () => {
    expect(() => prepareSms({ to: "5512345678", text: "Hola", template: "" })).toThrow(TypeError);
    expect(() => prepareSms({ to: "5512345678", text: "", template: "line_code" })).toThrow(
      TypeError,
    );
  });
});
