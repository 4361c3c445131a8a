import { describe, expect, it } from "vitest";
import { getFixedT } from "~/i18n/i18n.server";
import { translateFormMessage } from "~/lib/form-messages";
import { CURP_FAULTS, curpCheckDigit } from "./curp";
import {
  curpFaultMessage,
  holderIdentification,
  holderKey,
  holderName,
  holderSchema,
  IDENTIFICATION_TYPES,
  personaExtranjeraSchema,
  personaFisicaSchema,
  personaMoralSchema,
  rfcFaultMessage,
} from "./holder";
import { RFC_FAULTS, rfcCheckDigit } from "./rfc";

const CURP = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");
const CURP_TEMPORAL = "SXMJ900101HNEXXX0" + curpCheckDigit("SXMJ900101HNEXXX0");
const RFC = "EKU9003173C9";

const fisica = {
  holder_kind: "fisica",
  full_name: "Beatriz Gómez Martínez",
  curp: CURP.toLowerCase(),
  identification_type: "ine",
};
const extranjera = {
  holder_kind: "extranjera",
  full_name: "John Smith",
  passport_number: "a1234 5678",
  nationality: "US",
};
const moral = {
  holder_kind: "moral",
  business_name: "Escuela Kemper Urgate, S.A. de C.V.",
  rfc: "eku-900317-3c9",
  representative_name: "Beatriz Gómez Martínez",
  representative_curp: CURP,
  representative_identification_type: "pasaporte",
};

/** Each field's messages: a field shows one message at a time. */
const errorsOf = (input: Record<string, unknown>) => {
  const result = holderSchema.safeParse(input);
  const byField: Record<string, string[]> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    (byField[issue.path.join(".")] ??= []).push(issue.message);
  }
  for (const [field, messages] of Object.entries(byField)) expect(messages, field).toHaveLength(1);
  return Object.fromEntries(Object.entries(byField).map(([field, [first]]) => [field, first]));
};

describe("the holder of a line", () => {
  it("takes a persona física: name as on the ID, CURP, identification", () => {
    const holder = holderSchema.parse(fisica);
    expect(holder).toEqual({ ...fisica, curp: CURP });
    expect(holderKey(holder)).toBe(CURP);
    expect(holderName(holder)).toBe("Beatriz Gómez Martínez");
    expect(holderIdentification(holder)).toBe("ine");
  });

  it("takes a persona extranjera by passport, or by the CURP temporal when given", () => {
    const holder = holderSchema.parse({ ...extranjera, curp: "" });
    expect(holder).toEqual({ ...extranjera, passport_number: "A12345678", curp: undefined });
    expect(holderKey(holder)).toBe("US:A12345678");
    expect(holderIdentification(holder)).toBe("pasaporte");
    const withCurp = holderSchema.parse({ ...extranjera, curp: CURP_TEMPORAL });
    expect(holderKey(withCurp)).toBe(CURP_TEMPORAL);
  });

  it("takes a persona moral: razón social, RFC, the legal representative's name and CURP", () => {
    const holder = holderSchema.parse(moral);
    expect(holder).toMatchObject({ rfc: RFC, representative_curp: CURP });
    expect(holderKey(holder)).toBe(RFC);
    expect(holderName(holder)).toBe("Escuela Kemper Urgate, S.A. de C.V.");
    expect(holderIdentification(holder)).toBe("pasaporte");
  });

  it("asks which kind of holder first", () => {
    expect(errorsOf({ ...fisica, holder_kind: "alien" })).toEqual({
      holder_kind: "registration:errors.holderKindRequired",
    });
    expect(errorsOf({})).toEqual({ holder_kind: "registration:errors.holderKindRequired" });
  });

  it.each([
    ["", "curpRequired"],
    ["GOMA850312", "curpLength"],
    ["GOMA-850312MDFRRN0", "curpCharacters"],
    ["G0MA850312MDFRRN0" + curpCheckDigit("G0MA850312MDFRRN0"), "curpInitials"],
    ["GOMA850230MDFRRN0" + curpCheckDigit("GOMA850230MDFRRN0"), "curpBirthDate"],
    ["GOMA850312ZDFRRN0" + curpCheckDigit("GOMA850312ZDFRRN0"), "curpSex"],
    ["GOMA850312MXXRRN0" + curpCheckDigit("GOMA850312MXXRRN0"), "curpState"],
    ["GOMA850312MDFAEI0" + curpCheckDigit("GOMA850312MDFAEI0"), "curpConsonants"],
    [CURP.slice(0, 17) + ((Number(CURP[17]) + 1) % 10), "curpCheckDigit"],
  ])("tells the CURP %j apart: %s, next to the field", (curp, key) => {
    expect(errorsOf({ ...fisica, curp })).toEqual({ curp: `registration:errors.${key}` });
    expect(errorsOf({ ...moral, representative_curp: curp })).toEqual({
      representative_curp: `registration:errors.${key === "curpRequired" ? "representativeCurpRequired" : key}`,
    });
  });

  it.each([
    ["", "rfcRequired"],
    ["EKU90031", "rfcLength"],
    ["EKU.900317C9", "rfcCharacters"],
    ["XAXX010101000", "rfcGeneric"],
    ["CACX7605101P8", "rfcKind"],
    ["E1U900317A1" + rfcCheckDigit("E1U900317A1"), "rfcName"],
    ["EKU900230A1" + rfcCheckDigit("EKU900230A1"), "rfcDate"],
    ["EKU900317Ñ1" + rfcCheckDigit("EKU900317Ñ1"), "rfcHomoclave"],
    ["EKU9003173C8", "rfcCheckDigit"],
  ])("tells the RFC %j apart: %s", (rfc, key) => {
    expect(errorsOf({ ...moral, rfc })).toEqual({ rfc: `registration:errors.${key}` });
  });

  it("checks a foreigner's passport, nationality and optional CURP temporal", () => {
    expect(errorsOf({ ...extranjera, passport_number: " " })).toEqual({
      passport_number: "registration:errors.passportRequired",
    });
    expect(errorsOf({ ...extranjera, passport_number: "A1/23" })).toEqual({
      passport_number: "registration:errors.passportFormat",
    });
    expect(errorsOf({ ...extranjera, nationality: "" })).toEqual({
      nationality: "registration:errors.nationalityRequired",
    });
    expect(errorsOf({ ...extranjera, nationality: "MX" })).toEqual({
      nationality: "registration:errors.nationalityMexican",
    });
    expect(errorsOf({ ...extranjera, curp: "SXMJ900101" })).toEqual({
      curp: "registration:errors.curpLength",
    });
  });

  it("asks for a name as on the ID and an identification the operators take", () => {
    expect(errorsOf({ ...fisica, full_name: "  " })).toEqual({
      full_name: "registration:errors.fullNameRequired",
    });
    expect(errorsOf({ ...fisica, full_name: "Bea\u202Etriz" })).toEqual({
      full_name: "registration:errors.controlCharacters",
    });
    expect(errorsOf({ ...fisica, identification_type: "cedula" })).toEqual({
      identification_type: "registration:errors.identificationTypeRequired",
    });
    expect(errorsOf({ ...moral, business_name: "" })).toEqual({
      business_name: "registration:errors.businessNameRequired",
    });
    expect(errorsOf({ ...moral, representative_name: "" })).toEqual({
      representative_name: "registration:errors.representativeNameRequired",
    });
  });

  it("has one schema per kind, each refusing the other kinds", () => {
    expect(personaFisicaSchema.safeParse(fisica).success).toBe(true);
    expect(personaExtranjeraSchema.safeParse(extranjera).success).toBe(true);
    expect(personaMoralSchema.safeParse(moral).success).toBe(true);
    expect(personaFisicaSchema.safeParse(moral).success).toBe(false);
  });

  it("says every fault, kind and identification in Spanish from the registration namespace", () => {
    const t = getFixedT("registration");
    const keys = [
      ...CURP_FAULTS.map(curpFaultMessage),
      ...RFC_FAULTS.map(rfcFaultMessage),
      ...IDENTIFICATION_TYPES.map((type) => `registration:identificationTypes.${type}`),
      ...["fisica", "extranjera", "moral"].map((kind) => `registration:holderKinds.${kind}`),
    ];
    for (const key of keys) {
      const text = translateFormMessage(t, key);
      expect(text, key).not.toBe(key.split(":")[1]);
      expect(text, key).not.toContain("registration:");
    }
    expect(new Set(CURP_FAULTS.map(curpFaultMessage)).size).toBe(CURP_FAULTS.length);
    expect(new Set(RFC_FAULTS.map(rfcFaultMessage)).size).toBe(RFC_FAULTS.length);
  });
});
