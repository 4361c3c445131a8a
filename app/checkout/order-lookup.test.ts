import { describe, expect, it } from "vitest";
import { orderLookupSchema } from "./order-lookup";

describe("the order lookup form", () => {
  it("takes a folio as customers write it and the e-mail trimmed", () => {
    expect(
      orderLookupSchema.parse({ folio: " ped-2026-000123 ", correo: " Ana@Example.com " }),
    ).toEqual({
      folio: "PED-2026-000123",
      correo: "Ana@Example.com",
    });
  });

  it("says in Spanish what is wrong with each field", () => {
    const result = orderLookupSchema.safeParse({ folio: "REC-2026-000001", correo: "ana@" });
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["folio", "commerce:lookup.errors.folioFormat"],
      ["correo", "commerce:lookup.errors.emailInvalid"],
    ]);
  });
});
