import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkCurp, curpCheckDigit } from "./curp";
import { curpInitialsReadings } from "./curp-initials";
import {
  isIdValidationUnavailable,
  type IdEvidence,
  type IdValidationRequest,
} from "./id-validation";
import {
  createSandboxIdValidator,
  SANDBOX_TEST_CURPS,
  SANDBOX_TEST_DOCUMENT_NUMBERS,
  sandboxOutcome,
} from "./id-validation-sandbox.server";
import { checkIdentificationNumber } from "./identification-evidence";
import { rfcCheckDigit } from "./rfc";

const fisica = (fullName: string, curp: string): IdValidationRequest => ({
  kind: "fisica",
  fullName,
  curp,
  rfc: null,
  passportNumber: null,
  nationality: null,
});

const RICARDO = "AAPR630321HDFLRC09";

const jpeg = (marker: string) => ({
  type: "image/jpeg",
  bytes: new Uint8Array([0xff, 0xd8, 0xff, ...Buffer.from(marker)]),
});
const evidence = (
  document: IdEvidence["document"],
  documentNumber: string,
  selfie = jpeg("selfie"),
): IdEvidence => ({ document, documentNumber, idPhoto: jpeg("id"), selfie });

describe("the sandbox's answers to online registration's evidence", () => {
  const ricardo = fisica("Ricardo Alamán Pérez", RICARDO);

  it("documents test numbers the form lets through", () => {
    for (const numbers of Object.values(SANDBOX_TEST_DOCUMENT_NUMBERS)) {
      expect(checkIdentificationNumber("ine", numbers.ine).ok).toBe(true);
      expect(checkIdentificationNumber("pasaporte", numbers.pasaporte).ok).toBe(true);
      expect(numbers["pasaporte-extranjero"]).toMatch(/^[A-Z0-9]{6,20}$/);
    }
  });

  it("passes any other number with two different images, and then the CURP decides", () => {
    expect(sandboxOutcome({ ...ricardo, evidence: evidence("ine", "123456789") })).toBe("valid");
    expect(
      sandboxOutcome({
        ...fisica("Beatriz Ruiz Luna", RICARDO),
        evidence: evidence("ine", "123456789"),
      }),
    ).toBe("name-mismatch");
  });

  it.each(["ine", "pasaporte", "pasaporte-extranjero"] as const)(
    "answers its %s test number as not the person's",
    (document) => {
      const number = SANDBOX_TEST_DOCUMENT_NUMBERS["document-mismatch"][document];
      expect(sandboxOutcome({ ...ricardo, evidence: evidence(document, number) })).toBe(
        "document-mismatch",
      );
    },
  );

  it("answers a selfie that is the identification's photo as not live", () => {
    expect(sandboxOutcome({ ...ricardo, evidence: evidence("ine", "123456789", jpeg("id")) })).toBe(
      "selfie-not-live",
    );
  });

  it("is unavailable for its test number, as the real service may be", async () => {
    const number = SANDBOX_TEST_DOCUMENT_NUMBERS.unavailable.ine;
    const answer = createSandboxIdValidator().validate({
      ...ricardo,
      evidence: evidence("ine", number),
    });
    await expect(answer).rejects.toSatisfy(isIdValidationUnavailable);
  });
});

describe("the sandbox identity validation", () => {
  it("documents test CURPs that are well formed, so that the form lets them through", () => {
    for (const curp of Object.values(SANDBOX_TEST_CURPS)) {
      expect(checkCurp(curp).ok, curp).toBe(true);
    }
  });

  it.each(Object.entries(SANDBOX_TEST_CURPS))(
    "refuses its test CURP for %s whatever the name",
    async (outcome, curp) => {
      const validator = createSandboxIdValidator();
      for (const name of ["Ricardo Alamán Pérez", "Xavier Xochitl Xolalpa"]) {
        expect((await validator.validate(fisica(name, curp))).outcome).toBe(outcome);
        expect((await validator.validate(fisica(name, ` ${curp.toLowerCase()} `))).outcome).toBe(
          outcome,
        );
      }
    },
  );

  it("accepts a well-formed CURP whose name matches, with a reference of its own", async () => {
    const validator = createSandboxIdValidator();
    const first = await validator.validate(fisica("Ricardo Alamán Pérez", RICARDO));
    expect(first).toMatchObject({ outcome: "valid", source: "sandbox" });
    expect(first.reference).toMatch(/^sandbox-[0-9a-f-]{36}$/);
    const again = await validator.validate(fisica("ALAMAN PEREZ RICARDO", RICARDO));
    expect(again.outcome).toBe("valid");
    expect(again.reference).not.toBe(first.reference);
    expect(validator.name).toBe("sandbox");
  });

  it("says the name does not match a CURP typed for someone else", () => {
    expect(sandboxOutcome(fisica("Gloria Hernández García", RICARDO))).toBe("name-mismatch");
  });

  it("does not find a CURP that is not well formed (the form checks first)", () => {
    expect(sandboxOutcome(fisica("Ricardo Alamán Pérez", "AAPR630321HDFLRC08"))).toBe("not-found");
    expect(sandboxOutcome({ ...fisica("Ricardo Alamán Pérez", RICARDO), curp: null })).toBe(
      "not-found",
    );
  });

  it("accepts every well-formed CURP given with a name of its initials (property)", () => {
    const letter = fc.constantFrom(..."BCDFGHJKLMNPRSTVZ");
    const vowel = fc.constantFrom(..."AEIOU");
    fc.assert(
      fc.property(letter, vowel, letter, letter, (first, inner, second, given) => {
        const initials = `${first}${inner}${second}${given}`;
        const first17 = `${initials}850312MDFRRN0`;
        const curp = `${first17}${curpCheckDigit(first17)}`;
        fc.pre(checkCurp(curp).ok);
        const name = `${given}ANA ${first}${inner}RRA ${second}OTO`;
        // Consonants in the third and fourth places make none of RENAPO's inconvenient words.
        expect(sandboxOutcome(fisica(name, curp))).toBe("valid");
        const someoneElse = "Gloria Hernández García";
        if (!curpInitialsReadings(someoneElse).includes(initials)) {
          expect(sandboxOutcome(fisica(someoneElse, curp))).toBe("name-mismatch");
        }
      }),
    );
  });

  it("applies the CURP rules to a foreigner's CURP temporal, and otherwise takes a well-formed passport", () => {
    const foreigner: IdValidationRequest = {
      kind: "extranjera",
      fullName: "John Smith",
      curp: null,
      rfc: null,
      passportNumber: "X12345678",
      nationality: "US",
    };
    expect(sandboxOutcome(foreigner)).toBe("valid");
    expect(sandboxOutcome({ ...foreigner, passportNumber: "12" })).toBe("not-found");
    expect(sandboxOutcome({ ...foreigner, nationality: "MX" })).toBe("not-found");
    expect(sandboxOutcome({ ...foreigner, nationality: "ZZ" })).toBe("not-found");
    expect(sandboxOutcome({ ...foreigner, curp: SANDBOX_TEST_CURPS.deceased })).toBe("deceased");
    expect(sandboxOutcome({ ...foreigner, curp: RICARDO })).toBe("name-mismatch");
  });

  it("takes a persona moral's well-formed RFC, and its representative's test CURPs", () => {
    const rfc11 = "ABC010203XY";
    const company: IdValidationRequest = {
      kind: "moral",
      fullName: "Abarrotes del Centro, S.A. de C.V.",
      curp: RICARDO,
      rfc: `${rfc11}${rfcCheckDigit(rfc11)}`,
      passportNumber: null,
      nationality: null,
    };
    expect(sandboxOutcome(company)).toBe("valid");
    expect(sandboxOutcome({ ...company, rfc: "XAXX010101000" })).toBe("not-found");
    expect(sandboxOutcome({ ...company, curp: SANDBOX_TEST_CURPS["not-found"] })).toBe("not-found");
    expect(sandboxOutcome({ ...company, curp: SANDBOX_TEST_CURPS.deceased })).toBe("deceased");
  });
});
