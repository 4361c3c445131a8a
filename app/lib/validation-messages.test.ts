import * as z from "zod";
import { describe, expect, it } from "vitest";
import { getFixedT } from "~/i18n/i18n.server";
import { setSpanishValidationMessages } from "./validation-messages";

describe("zod's own messages", () => {
  setSpanishValidationMessages(getFixedT("common"));
  const schema = z.object({ name: z.string().max(5), age: z.number() });

  it("come out in Spanish where a schema names none", () => {
    const result = schema.safeParse({ name: ["Ana", "Eva"], age: "x" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.message)).toEqual([
      "Escribe un solo valor en este campo.",
      "Revisa este dato: no tiene un formato válido.",
    ]);
    expect(schema.safeParse({ name: "Ana María", age: 3 }).error!.issues[0].message).toBe(
      "Este dato es demasiado largo.",
    );
  });

  it("leave the messages a schema names alone", () => {
    const named = z.string({ error: "Escribe tu nombre." });
    expect(named.safeParse(42).error!.issues[0].message).toBe("Escribe tu nombre.");
  });
});
