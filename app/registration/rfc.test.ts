import { CheckSum, Rfc } from "@nodecfdi/rfc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkRfc, isValidRfc, normalizeRfc, RFC_FAULTS, rfcCheckDigit } from "./rfc";

const withCheckDigit = (withoutCheckDigit: string) =>
  withoutCheckDigit + rfcCheckDigit(withoutCheckDigit);
const faultOf = (rfc: string, expected?: "moral" | "fisica") => {
  const check = checkRfc(rfc, expected);
  return check.ok ? "ok" : check.fault;
};

describe("RFC", () => {
  it.each([
    // SAT's own RFC, and the companies and people of the test certificates SAT publishes for CFDI.
    ["SAT970701NN3", "moral"],
    ["EKU9003173C9", "moral"],
    ["IIA040805DZ4", "moral"],
    ["XIA190128J61", "moral"],
    ["CACX7605101P8", "fisica"],
    ["FUNK671228PH6", "fisica"],
  ])("accepts %s, a persona %s", (rfc, kind) => {
    expect(checkRfc(rfc)).toEqual({ ok: true, rfc, kind });
    expect(isValidRfc(rfc, kind as "moral" | "fisica")).toBe(true);
  });

  it("reads an RFC as people write it: lower case, hyphens, spaces", () => {
    expect(normalizeRfc(" eku-900317-3c9 ")).toBe("EKU9003173C9");
    expect(isValidRfc("eku 900317 3c9")).toBe(true);
  });

  it("takes Ñ and & in the name, whichever way the Ñ was typed", () => {
    const withEnye = withCheckDigit("ÑA&850101AB");
    expect(checkRfc(withEnye)).toMatchObject({ ok: true, kind: "moral" });
    expect(checkRfc(withEnye.normalize("NFD").toLowerCase())).toMatchObject({ ok: true });
  });

  it.each([
    ["too short", "EKU9003173C", "length"],
    ["too long", "EKU9003173C99X", "length"],
    ["a dot", "EKU.9003173C9", "characters"],
    ["public at large", "XAXX010101000", "generic"],
    ["foreign party", "xexx010101000", "generic"],
    ["digits in the name", withCheckDigit("E1U900317A1"), "name"],
    ["month 13", withCheckDigit("EKU901317A1"), "date"],
    ["29 February 2001", withCheckDigit("EKU010229A1"), "date"],
    ["letters in the date", withCheckDigit("EKU9OO317A1"), "date"],
    ["Ñ in the homoclave", withCheckDigit("EKU900317Ñ1"), "homoclave"],
    ["a wrong check digit", "EKU9003173C8", "check-digit"],
  ])("rejects an RFC with %s", (_case, rfc, fault) => {
    expect(faultOf(rfc)).toBe(fault);
  });

  it("accepts 29 February 2000", () => {
    expect(faultOf(withCheckDigit("EKU000229A1"))).toBe("ok");
  });

  it("tells a persona física's RFC where a persona moral's is asked for, and the other way", () => {
    expect(faultOf("CACX7605101P8", "moral")).toBe("kind");
    expect(faultOf("EKU9003173C9", "fisica")).toBe("kind");
    expect(faultOf("XAXX010101000", "moral")).toBe("generic");
  });
});

const nameCharacter = fc.constantFrom(..."ABCDEFGHIJKLMNÑOPQRSTUVWXYZ&");
const homoclaveCharacter = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
const pad = (value: number) => String(value).padStart(2, "0");

/** An RFC SAT could have given, of either kind, without its check digit. */
const rfcBody = fc
  .record({
    kind: fc.constantFrom("moral" as const, "fisica" as const),
    name: fc.array(nameCharacter, { minLength: 4, maxLength: 4 }),
    date: fc.date({
      min: new Date("1930-01-01T00:00:00Z"),
      max: new Date("2026-11-24T00:00:00Z"),
      noInvalidDate: true,
    }),
    homoclave: fc.tuple(homoclaveCharacter, homoclaveCharacter),
  })
  .map(({ kind, name, date, homoclave }) => ({
    kind,
    body: [
      ...name.slice(kind === "moral" ? 1 : 0),
      String(date.getUTCFullYear()).slice(2),
      pad(date.getUTCMonth() + 1),
      pad(date.getUTCDate()),
      ...homoclave,
    ].join(""),
  }))
  .filter(({ body }) => !body.startsWith("XAXX010101") && !body.startsWith("XEXX010101"));

describe("RFC properties", () => {
  it("every RFC SAT could give passes, as the kind its length says", () => {
    fc.assert(
      fc.property(rfcBody, ({ kind, body }) => {
        const rfc = withCheckDigit(body);
        expect(checkRfc(rfc)).toEqual({ ok: true, rfc, kind });
        expect(checkRfc(rfc, kind).ok).toBe(true);
      }),
    );
  });

  it("computes the check digit as @nodecfdi/rfc does, and agrees with its parser", () => {
    fc.assert(
      fc.property(rfcBody, ({ body }) => {
        const rfc = withCheckDigit(body);
        expect(new CheckSum().calculate(rfc)).toBe(rfc.slice(-1));
        expect(Rfc.isValid(rfc)).toBe(true);
      }),
    );
  });

  it("any other check character fails on the check digit", () => {
    fc.assert(
      fc.property(rfcBody, fc.constantFrom(..."0123456789A"), ({ body }, last) => {
        fc.pre(last !== rfcCheckDigit(body));
        expect(faultOf(body + last)).toBe("check-digit");
      }),
    );
  });

  it("never throws, and names a known fault for anything else", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ minLength: 12, maxLength: 13 })), (value) => {
        const check = checkRfc(value);
        if (!check.ok) expect(RFC_FAULTS).toContain(check.fault);
      }),
    );
  });
});
