import type { FieldMetadata } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { labelFields } from "./labelled-fields";

const meta = (name: string) => ({ id: `form-${name}`, name }) as unknown as FieldMetadata<string>;

describe("a form's one list of fields", () => {
  it("gives each field its label, and the summary the same entries in the list's order", () => {
    const metas = { email: meta("email"), name: meta("name"), key: meta("key") };
    const { field, summary } = labelFields(metas, { name: "Nombre", email: "Correo" });
    expect(field.name).toEqual({ meta: metas.name, label: "Nombre" });
    expect(summary).toEqual([field.name, field.email]);
    // A field left out of the list (the hidden form key) is in neither.
    expect(summary.map((entry) => entry.meta)).not.toContain(metas.key);
  });
});
