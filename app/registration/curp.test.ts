import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkCurp,
  CURP_FAULTS,
  CURP_STATES,
  curpCheckDigit,
  isValidCurp,
  maskCurp,
  normalizeCurp,
} from "./curp";

const withCheckDigit = (first17: string) => first17 + curpCheckDigit(first17);
const TODAY = "2026-11-25";
const faultOf = (curp: string, today = TODAY) => {
  const check = checkCurp(curp, today);
  return check.ok ? "ok" : check.fault;
};

describe("CURP", () => {
  const valid = withCheckDigit("GOMA850312MDFRRN0");

  it("accepts a well-formed CURP with its check digit, in any case and with stray spaces", () => {
    expect(isValidCurp(valid)).toBe(true);
    expect(isValidCurp(` ${valid.toLowerCase()} `)).toBe(true);
    expect(normalizeCurp(" goma850312mdfrrn0 5")).toBe("GOMA850312MDFRRN05");
  });

  it("accepts RENAPO's published example and the instructivo's", () => {
    // gob.mx's hypothetical Ricardo Alamán Pérez, born in the D. F. on 21 March 1963.
    expect(checkCurp("AAPR630321HDFLRC09", TODAY)).toEqual({
      ok: true,
      curp: "AAPR630321HDFLRC09",
      birthDate: "1963-03-21",
      sex: "H",
      state: "DF",
    });
    expect(checkCurp("HEGG560427MVZRRL04", TODAY)).toMatchObject({
      ok: true,
      birthDate: "1956-04-27",
      sex: "M",
      state: "VZ",
    });
  });

  it("rejects a wrong check digit", () => {
    const wrong = valid.slice(0, 17) + ((Number(valid[17]) + 1) % 10);
    expect(isValidCurp(wrong)).toBe(false);
    expect(faultOf(wrong)).toBe("check-digit");
    expect(faultOf(`${valid.slice(0, 17)}A`)).toBe("check-digit");
  });

  it.each([
    ["too short", "GOMA850312MDFRRN0", "length"],
    ["too long", `${valid}1`, "length"],
    ["an accent", withCheckDigit("GÓMA850312MDFRRN0"), "characters"],
    ["a hyphen", "GOMA-850312MDFRRN0", "characters"],
    ["digits in the name", withCheckDigit("G0MA850312MDFRRN0"), "initials"],
    [
      "a consonant where the first inner vowel goes",
      withCheckDigit("GMMA850312MDFRRN0"),
      "initials",
    ],
    ["letters in the date", withCheckDigit("GOMA85O312MDFRRN0"), "birth-date"],
    ["month 13", withCheckDigit("GOMA851312MDFRRN0"), "birth-date"],
    ["day 32", withCheckDigit("GOMA850332MDFRRN0"), "birth-date"],
    ["31 April", withCheckDigit("GOMA850431MDFRRN0"), "birth-date"],
    ["unknown sex", withCheckDigit("GOMA850312ZDFRRN0"), "sex"],
    ["unknown state", withCheckDigit("GOMA850312MXXRRN0"), "state"],
    ["vowel where a consonant goes", withCheckDigit("GOMA850312MDFARN0"), "consonants"],
  ])("rejects a CURP with %s", (_case, curp, fault) => {
    expect(isValidCurp(curp)).toBe(false);
    expect(faultOf(curp)).toBe(fault);
  });

  it("accepts people born abroad (NE) and the non-binary marker X", () => {
    expect(isValidCurp(withCheckDigit("PEXJ010101XNEPRS0"))).toBe(true);
    expect(checkCurp(withCheckDigit("PEXJ010101XNEPRSA"), TODAY)).toMatchObject({
      ok: true,
      birthDate: "2001-01-01",
      sex: "X",
      state: "NE",
    });
  });

  it("reads the century from the homonym character: a digit up to 1999, a letter from 2000", () => {
    expect(checkCurp(withCheckDigit("GOMA050312MDFRRN0"), TODAY)).toMatchObject({
      birthDate: "1905-03-12",
    });
    expect(checkCurp(withCheckDigit("GOMA050312MDFRRNA"), TODAY)).toMatchObject({
      birthDate: "2005-03-12",
    });
  });

  it("accepts 29 February only in a leap year of the CURP's own century", () => {
    expect(faultOf(withCheckDigit("GOMA960229MDFRRN0"))).toBe("ok"); // 1996
    expect(faultOf(withCheckDigit("GOMA970229MDFRRN0"))).toBe("birth-date"); // 1997
    expect(faultOf(withCheckDigit("GOMA000229MDFRRNA"))).toBe("ok"); // 2000
    expect(faultOf(withCheckDigit("GOMA000229MDFRRN0"))).toBe("birth-date"); // 1900
  });

  it("refuses a date of birth after today in Mexico City", () => {
    const bornToday = withCheckDigit("GOMA261125MDFRRNA");
    expect(faultOf(bornToday, "2026-11-25")).toBe("ok");
    expect(faultOf(bornToday, "2026-11-24")).toBe("birth-date");
  });

  it("masks all but the first 4 and the last 2 characters", () => {
    expect(maskCurp("GOMA850312MDFRRN09")).toBe("GOMA••••••••••••09");
  });
});

const letter = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ");
const consonant = fc.constantFrom(..."BCDFGHJKLMNPQRSTVWXYZ");
const pad = (value: number) => String(value).padStart(2, "0");

/** A CURP RENAPO could have issued, with what it encodes. */
const validCurp = fc
  .record({
    first: letter,
    vowel: fc.constantFrom(..."AEIOUX"),
    initials: fc.tuple(letter, letter),
    birth: fc.date({
      min: new Date("1900-01-01T00:00:00Z"),
      max: new Date("2026-11-24T00:00:00Z"),
      noInvalidDate: true,
    }),
    sex: fc.constantFrom("H", "M", "X"),
    state: fc.constantFrom(...Object.keys(CURP_STATES)),
    consonants: fc.tuple(consonant, consonant, consonant),
    homonymDigit: fc.constantFrom(..."0123456789"),
    homonymLetter: letter,
  })
  .map((parts) => {
    const birthDate = parts.birth.toISOString().slice(0, 10);
    const year = parts.birth.getUTCFullYear();
    const first17 = [
      parts.first,
      parts.vowel,
      ...parts.initials,
      String(year).slice(2),
      pad(parts.birth.getUTCMonth() + 1),
      pad(parts.birth.getUTCDate()),
      parts.sex,
      parts.state,
      ...parts.consonants,
      year < 2000 ? parts.homonymDigit : parts.homonymLetter,
    ].join("");
    return { curp: withCheckDigit(first17), birthDate, sex: parts.sex, state: parts.state };
  });

describe("CURP properties", () => {
  it("every CURP RENAPO could issue passes, and tells its date of birth, sex and state", () => {
    fc.assert(
      fc.property(validCurp, ({ curp, birthDate, sex, state }) => {
        expect(checkCurp(curp, TODAY)).toEqual({ ok: true, curp, birthDate, sex, state });
      }),
    );
  });

  it("any other last digit fails on the check digit", () => {
    fc.assert(
      fc.property(validCurp, fc.integer({ min: 1, max: 9 }), ({ curp }, shift) => {
        const changed = curp.slice(0, 17) + ((Number(curp[17]) + shift) % 10);
        expect(faultOf(changed)).toBe("check-digit");
      }),
    );
  });

  it("is blind to case and spaces", () => {
    fc.assert(
      fc.property(validCurp, fc.nat({ max: 17 }), ({ curp }, at) => {
        const typed = ` ${curp.slice(0, at).toLowerCase()} ${curp.slice(at)} `;
        expect(checkCurp(typed, TODAY)).toEqual(checkCurp(curp, TODAY));
      }),
    );
  });

  it("never throws, and names a known fault for anything else", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ minLength: 18, maxLength: 18 })), (value) => {
        const check = checkCurp(value, TODAY);
        if (!check.ok) expect(CURP_FAULTS).toContain(check.fault);
      }),
    );
  });
});
