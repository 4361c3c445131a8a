import { Rfc } from "@nodecfdi/rfc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rfcCheckDigit } from "~/registration/rfc";
import { fiscalDataSchema, maskRfc, USE_SAVED_RFC } from "./fiscal-data";

const withCheckDigit = (body: string) => body + rfcCheckDigit(body);
const FISICA_RFC = withCheckDigit("GOMA850312AB");
const MORAL_RFC = withCheckDigit("CNO010101AB");

const valid = {
  rfc: FISICA_RFC,
  nombre: "  Ana   Gómez Martínez ",
  regimen: "612",
  codigo_postal: "03100",
  uso: "G03",
  correo: "ana@example.com",
};

function check(
  form: Record<string, string>,
  options: Parameters<typeof fiscalDataSchema>[0] = { askCardKind: false, savedRfcKind: null },
) {
  const result = fiscalDataSchema(options).safeParse(form);
  if (result.success) return { ok: true as const, value: result.data };
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0]);
    (errors[key] ??= []).push(issue.message);
  }
  return { ok: false as const, errors };
}

describe("the receiver's fiscal data", () => {
  it("takes a persona física's data, the name's spaces collapsed", () => {
    expect(check(valid)).toEqual({
      ok: true,
      value: {
        rfc: FISICA_RFC,
        kind: "fisica",
        name: "Ana Gómez Martínez",
        regimen: "612",
        postalCode: "03100",
        uso: "G03",
        email: "ana@example.com",
        cardKind: null,
      },
    });
  });

  it("takes a persona moral's data, with its RFC typed any way", () => {
    const result = check({
      ...valid,
      rfc: ` ${MORAL_RFC.slice(0, 3).toLowerCase()}-${MORAL_RFC.slice(3)} `,
      nombre: "Comercializadora del Norte",
      regimen: "601",
      uso: "I06",
    });
    expect(result).toMatchObject({ ok: true, value: { rfc: MORAL_RFC, kind: "moral" } });
  });

  it.each([
    ["", "invoicing:errors.rfcRequired"],
    ["GOMA85031", "invoicing:errors.rfcLength"],
    [
      `${FISICA_RFC.slice(0, 12)}${FISICA_RFC[12] === "1" ? "2" : "1"}`,
      "invoicing:errors.rfcCheckDigit",
    ],
    ["XAXX010101000", "invoicing:errors.rfcGeneric"],
    [withCheckDigit("GOMA851312AB"), "invoicing:errors.rfcDate"],
  ])("refuses the RFC %s next to it", (rfc, message) => {
    expect(check({ ...valid, rfc })).toEqual({ ok: false, errors: { rfc: [message] } });
  });

  it("refuses a régimen the RFC's kind may not hold, next to the régimen", () => {
    expect(check({ ...valid, regimen: "601" })).toEqual({
      ok: false,
      errors: { regimen: ["invoicing:errors.regimenNotForFisica"] },
    });
    expect(
      check({ ...valid, rfc: MORAL_RFC, regimen: "612", nombre: "Comercializadora del Norte" }),
    ).toEqual({ ok: false, errors: { regimen: ["invoicing:errors.regimenNotForMoral"] } });
    expect(check({ ...valid, regimen: "699" })).toEqual({
      ok: false,
      errors: { regimen: ["invoicing:errors.regimenUnknown"] },
    });
  });

  it("refuses a use the régimen may not take, next to the use", () => {
    expect(check({ ...valid, uso: "D01", regimen: "616" })).toEqual({
      ok: false,
      errors: { uso: ["invoicing:errors.usoNotForRegimen"] },
    });
    expect(check({ ...valid, uso: "CN01" })).toEqual({
      ok: false,
      errors: { uso: ["invoicing:errors.usoUnknown"] },
    });
  });

  it.each([
    ["U+FFFF", "\uFFFF"],
    ["U+FFFE", "\uFFFE"],
    ["U+FDD0", "\uFDD0"],
    ["U+10FFFF", "\u{10FFFF}"],
    ["a lone surrogate", "\uDC00"],
  ])(
    "refuses a name holding the noncharacter %s, as it refuses a control character",
    (_name, character) => {
      expect(check({ ...valid, nombre: `Ana${character} Gómez` })).toEqual({
        ok: false,
        errors: { nombre: ["invoicing:errors.nameCharacters"] },
      });
    },
  );

  it("tells every problem at once", () => {
    const result = check({
      rfc: "X",
      nombre: "",
      regimen: "",
      codigo_postal: "123",
      uso: "",
      correo: "no",
    });
    expect(result.ok).toBe(false);
    expect(Object.keys(result.ok ? {} : result.errors).sort()).toEqual(
      ["codigo_postal", "correo", "nombre", "regimen", "rfc", "uso"].sort(),
    );
  });

  it("refuses a name with control characters or SAT's separator", () => {
    for (const nombre of ["Ana\u202eGómez", "Ana | Gómez", "Ana\u001bGómez"]) {
      expect(check({ ...valid, nombre })).toEqual({
        ok: false,
        errors: { nombre: ["invoicing:errors.nameCharacters"] },
      });
    }
  });

  it("asks a card payment's kind, and only then", () => {
    const options = { askCardKind: true, savedRfcKind: null };
    expect(check(valid, options)).toEqual({
      ok: false,
      errors: { tarjeta: ["invoicing:errors.cardKindRequired"] },
    });
    expect(check({ ...valid, tarjeta: "debito" }, options)).toMatchObject({
      ok: true,
      value: { cardKind: "debito" },
    });
    expect(check({ ...valid, tarjeta: "debito" })).toMatchObject({
      ok: true,
      value: { cardKind: null },
    });
  });

  it("uses the saved RFC when the field is left empty and the box ticked, checking the régimen against its kind", () => {
    const options = { askCardKind: false, savedRfcKind: "moral" as const };
    const saved = {
      ...valid,
      rfc: "",
      rfc_guardado: USE_SAVED_RFC,
      nombre: "Comercializadora",
      regimen: "601",
      uso: "G03",
    };
    expect(check(saved, options)).toMatchObject({ ok: true, value: { rfc: null, kind: "moral" } });
    expect(check({ ...saved, regimen: "612" }, options)).toEqual({
      ok: false,
      errors: { regimen: ["invoicing:errors.regimenNotForMoral"] },
    });
    expect(check({ ...saved, rfc_guardado: undefined as unknown as string }, options)).toEqual({
      ok: false,
      errors: { rfc: ["invoicing:errors.rfcRequired"] },
    });
  });

  it("accepts every RFC SAT's reference parser accepts with its check digit (@nodecfdi/rfc)", () => {
    const letter = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    const alnum = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    fc.assert(
      fc.property(
        fc.array(letter, { minLength: 4, maxLength: 4 }),
        fc.date({ min: new Date("1950-01-01"), max: new Date("2020-12-31"), noInvalidDate: true }),
        fc.tuple(alnum, alnum),
        (name, date, homoclave) => {
          const body = `${name.join("")}${date.toISOString().slice(2, 10).replace(/-/g, "")}${homoclave.join("")}`;
          const rfc = withCheckDigit(body);
          // The reference refuses "inconvenient" words; what it parses, we take.
          let reference: string | null = null;
          try {
            reference = Rfc.parse(rfc).toString();
          } catch {
            return;
          }
          const result = check({ ...valid, rfc, nombre: "Ana Gómez" });
          expect(result).toMatchObject({ ok: true, value: { rfc: reference } });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("masks an RFC to its first four and last two characters", () => {
    expect(maskRfc(FISICA_RFC)).toBe(`GOMA•••••••${FISICA_RFC.slice(-2)}`);
    expect(maskRfc(MORAL_RFC)).toBe(`CNO0••••••${MORAL_RFC.slice(-2)}`);
  });
});
