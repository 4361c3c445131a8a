import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holderProofFormSchema } from "./holder-proof-form";

// Decision 0139: the form where an order's holder shows their identification.

const KEY = "AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB";
const jpeg = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name, { type: "image/jpeg" });

function submit(kind: "fisica" | "extranjera", fields: Record<string, string | File>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return parseWithZod(formData, { schema: holderProofFormSchema(kind) });
}

describe("the holder's proof form", () => {
  it("takes an INE's CIC or a Mexican passport's number with the two photos", () => {
    const photos = { id_photo: jpeg("ine.jpg"), selfie: jpeg("selfie.jpg"), idempotency_key: KEY };
    expect(
      submit("fisica", { identification_type: "ine", document_number: "1234 567-89", ...photos })
        .status,
    ).toBe("success");
    expect(
      submit("fisica", {
        identification_type: "pasaporte",
        document_number: "g12345678",
        ...photos,
      }).status,
    ).toBe("success");
    expect(submit("extranjera", photos).status).toBe("success");
  });

  it("says next to each field what is missing or wrong", () => {
    const refused = submit("fisica", { identification_type: "ine", document_number: "12345" });
    expect(refused.status).toBe("error");
    const errors = refused.status === "error" ? refused.error : {};
    expect(errors?.document_number).toEqual(["registration:errors.cicFormat"]);
    expect(errors?.id_photo).toEqual(["registration:errors.idPhotoRequired"]);
    expect(errors?.selfie).toEqual(["registration:errors.selfieRequired"]);
    const noType = submit("fisica", { identification_type: "curp_biometrica" });
    expect(noType.status === "error" && noType.error?.identification_type).toEqual([
      "registration:errors.onlineIdentificationRequired",
    ]);
  });

  it("never throws on any text in any field, and answers with the registration's messages", () => {
    const fields = [
      "identification_type",
      "document_number",
      "id_photo",
      "selfie",
      "idempotency_key",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom<"fisica" | "extranjera">("fisica", "extranjera"),
        fc.array(fc.tuple(fc.constantFrom(...fields), fc.string({ maxLength: 40 })), {
          maxLength: 8,
        }),
        (kind, pairs) => {
          const submission = submit(kind, Object.fromEntries(pairs));
          expect(submission.status).toBe("error");
          const messages = Object.values(
            submission.status === "error" ? (submission.error ?? {}) : {},
          ).flat();
          expect(messages.length).toBeGreaterThan(0);
          for (const message of messages) expect(message).toMatch(/^registration:errors\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});
