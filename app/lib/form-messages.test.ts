import { describe, expect, it } from "vitest";
import { getFixedT } from "~/i18n/i18n.server";
import { formMessage, translateFormMessage } from "./form-messages";

const t = getFixedT("common");

describe("form messages", () => {
  it("a key is translated where it is shown", () => {
    expect(translateFormMessage(t, "auth:validation.codeInvalid")).toMatch(/código/i);
  });

  it("a key with values carries them to the translation", () => {
    const message = formMessage("auth:validation.passwordMinLength", { min: 12 });
    expect(message).toBe("auth:validation.passwordMinLength?min=12");
    expect(translateFormMessage(t, message)).toBe(
      "La contraseña debe tener al menos 12 caracteres.",
    );
  });

  it("a finished sentence, even one asking something, stays as it is", () => {
    expect(translateFormMessage(t, "Correo o contraseña incorrectos.")).toBe(
      "Correo o contraseña incorrectos.",
    );
    expect(translateFormMessage(t, "¿Olvidaste tu contraseña?")).toBe("¿Olvidaste tu contraseña?");
  });
});
