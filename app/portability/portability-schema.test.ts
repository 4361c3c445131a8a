import { describe, expect, it } from "vitest";
import { curpCheckDigit } from "~/registration/curp";
import { passesLuhn } from "~/lib/luhn";
import { isValidIccid, maskPhoneNumber } from "./numbers";
import { portabilitySchema, statusLookupSchema } from "./portability-schema";

const curp = (() => {
  const first17 = "GOMA850312MDFRRN0";
  return first17 + curpCheckDigit(first17);
})();

function iccidWithCheckDigit(first: string): string {
  for (let digit = 0; digit <= 9; digit++) {
    if (passesLuhn(first + digit)) return first + digit;
  }
  throw new Error("unreachable");
}
const iccid = iccidWithCheckDigit("895201234567890123");

const valid = {
  phone_number: "55 1234 5678",
  nip: "1234",
  full_name: "Ana Gómez Martínez",
  email: "ana@example.mx",
  curp: curp.toLowerCase(),
  current_carrier: "telcel",
  iccid: "",
  accept_terms: "on",
  idempotency_key: "Qm9sYS1kZS1wcnVl.c2lnbmF0dXJhLWRlLXBydQ",
};

const errorsOf = (input: Record<string, unknown>) => {
  const result = portabilitySchema.safeParse(input);
  const byField: Record<string, string[]> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    (byField[issue.path.join(".")] ??= []).push(issue.message);
  }
  // The form shows every message of a field: each field gets exactly one.
  for (const [field, messages] of Object.entries(byField)) {
    expect(messages, field).toHaveLength(1);
  }
  return Object.fromEntries(Object.entries(byField).map(([field, [first]]) => [field, first]));
};

describe("portability request", () => {
  it("accepts a complete request and normalises what the customer typed", () => {
    const result = portabilitySchema.parse(valid);
    expect(result.phone_number).toBe("5512345678");
    expect(result.curp).toBe(curp);
    expect(result.iccid).toBeUndefined();
  });

  it("accepts a valid ICCID of the new SIM", () => {
    expect(isValidIccid(iccid)).toBe(true);
    expect(portabilitySchema.parse({ ...valid, iccid }).iccid).toBe(iccid);
  });

  it.each([
    ["phone_number", "", "portability:errors.phoneRequired"],
    ["phone_number", "12345", "portability:errors.phoneFormat"],
    ["phone_number", "0512345678", "portability:errors.phoneFormat"],
    ["nip", "", "portability:errors.nipRequired"],
    ["nip", "12a4", "portability:errors.nipFormat"],
    ["nip", "12345", "portability:errors.nipFormat"],
    ["full_name", "A", "portability:errors.fullNameShort"],
    ["email", "ana@", "portability:errors.emailInvalid"],
    ["curp", "", "portability:errors.curpRequired"],
    ["curp", "GOMA850312", "portability:errors.curpLength"],
    ["curp", curp.slice(0, 17) + ((Number(curp[17]) + 1) % 10), "portability:errors.curpInvalid"],
    ["current_carrier", "carrier-x", "portability:errors.carrierRequired"],
    ["iccid", "8952012345", "portability:errors.iccidInvalid"],
    [
      "iccid",
      iccid.slice(0, -1) + ((Number(iccid.at(-1)) + 1) % 10),
      "portability:errors.iccidInvalid",
    ],
    ["accept_terms", undefined, "portability:errors.acceptTerms"],
    ["idempotency_key", "x", "portability:errors.expired"],
  ])("rejects %s = %j with its own message", (field, value, expected) => {
    const errors = errorsOf({ ...valid, [field]: value });
    expect(errors[field]).toBe(expected);
    expect(Object.keys(errors)).toEqual([field]);
  });

  it("never shows a line in full when masking it", () => {
    expect(maskPhoneNumber("5512345678")).toBe("•••••• 5678");
  });
});

describe("status lookup", () => {
  it("accepts a folio in any case and a spaced number", () => {
    expect(
      statusLookupSchema.parse({ folio: " por-2026-000007 ", numero: "55-1234-5678" }),
    ).toEqual({
      folio: "POR-2026-000007",
      numero: "5512345678",
    });
  });
  it("rejects a malformed folio", () => {
    expect(
      statusLookupSchema.safeParse({ folio: "PED-2026-000007", numero: "5512345678" }).success,
    ).toBe(false);
  });
});
