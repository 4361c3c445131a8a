import { describe, expect, it } from "vitest";
import { assistedValidationSchema, readContact } from "./assisted-validation-form";

const KEY = "AbCdEfGhIjKlMnOp.AbCdEfGhIjKlMnOpQrStUv";
const valid = {
  contacto: "55 1234 5678",
  numero: "55 8765 4321",
  franja: "tarde",
  idempotency_key: KEY,
};

const errorsOf = (form: Record<string, string>) => {
  const parsed = assistedValidationSchema.safeParse(form);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
};

describe("the assisted validation form", () => {
  it("reads a contact as a phone's 10 digits or a lower-cased e-mail", () => {
    expect(readContact("(55) 1234-5678")).toEqual({ kind: "phone", value: "5512345678" });
    expect(readContact("+52 55 1234 5678")).toEqual({ kind: "phone", value: "5512345678" });
    expect(readContact(" Ana.Lopez@Ejemplo.MX ")).toEqual({
      kind: "email",
      value: "ana.lopez@ejemplo.mx",
    });
    expect(readContact("1234")).toBeNull();
    expect(readContact("0512345678")).toBeNull();
    expect(readContact("ana@")).toBeNull();
    expect(readContact("llámame")).toBeNull();
  });

  it("accepts a request and keeps the number's digits", () => {
    expect(assistedValidationSchema.parse(valid)).toEqual({
      contacto: { kind: "phone", value: "5512345678" },
      numero: "5587654321",
      franja: "tarde",
      idempotency_key: KEY,
    });
  });

  it("says what is wrong with each field, as a key of the registration namespace", () => {
    expect(errorsOf({ ...valid, contacto: "" })).toEqual({
      contacto: "registration:assisted.errors.contactRequired",
    });
    expect(errorsOf({ ...valid, contacto: "mi vecina" })).toEqual({
      contacto: "registration:assisted.errors.contactInvalid",
    });
    expect(errorsOf({ ...valid, contacto: `${"a".repeat(250)}@ejemplo.mx` })).toEqual({
      contacto: "registration:assisted.errors.tooLong",
    });
    expect(errorsOf({ ...valid, numero: "" })).toEqual({
      numero: "registration:assisted.errors.numberRequired",
    });
    expect(errorsOf({ ...valid, numero: "55 1234" })).toEqual({
      numero: "registration:assisted.errors.numberFormat",
    });
    expect(errorsOf({ ...valid, franja: "madrugada" })).toEqual({
      franja: "registration:assisted.errors.windowRequired",
    });
    expect(errorsOf({ ...valid, idempotency_key: "copiado" })).toEqual({
      idempotency_key: "registration:assisted.errors.staleForm",
    });
  });
});
