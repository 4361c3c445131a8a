import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { getCountries } from "libphonenumber-js/min";
import { getFixedT } from "~/i18n/i18n.server";
import { translateFormMessage } from "~/lib/form-messages";
import { countryOptions, DEFAULT_COUNTRY, normalizePhoneNumber, PHONE_RULES } from "./countries";
import {
  DEFAULT_PASSWORD_POLICY,
  confirmResetPasswordSchema,
  confirmSignInSchema,
  confirmSignUpSchema,
  confirmVerifyUserSchema,
  forceNewPasswordSchema,
  mfaPreferenceSchema,
  mfaSetupResponseSchema,
  passwordProblems,
  passwordsMismatch,
  requiredAttributeLabel,
  requiredAttributeResponseKey,
  requiredAttributesOf,
  selectMfaTypeSchema,
  setupEmailSchema,
  setupTotpSchema,
  signInSchema,
  signUpSchema,
  usernameOnlySchema,
  verifyUserSchema,
  type Translate,
} from "./schemas";

const t = getFixedT("auth") as Translate;
const policy = DEFAULT_PASSWORD_POLICY;
const GOOD = "Conecta-2025x";

function formDataOf(values: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(values)) formData.set(name, value);
  return formData;
}

function errorsOf(
  schema: Parameters<typeof parseWithZod>[1]["schema"],
  values: Record<string, string>,
) {
  const submission = parseWithZod(formDataOf(values), { schema });
  if (submission.status === "success") return {};
  // As the form shows them: each message key in Spanish.
  return Object.fromEntries(
    Object.entries(submission.error ?? {}).map(([field, messages]) => [
      field,
      messages?.map((message) => translateFormMessage(t, message)),
    ]),
  );
}

describe("sign-in", () => {
  it("needs the email and the password, in Spanish", () => {
    expect(errorsOf(signInSchema(), {})).toEqual({
      username: ["Escribe tu correo electrónico."],
      password: ["Escribe tu contraseña."],
    });
  });
  it("wants a real email and lower-cases it", () => {
    expect(errorsOf(signInSchema(), { username: "ana", password: "x" }).username).toEqual([
      "Escribe un correo electrónico válido, por ejemplo nombre@correo.com.",
    ]);
    const formData = new FormData();
    formData.set("username", " Ana@Ejemplo.MX ");
    formData.set("password", "x");
    const submission = parseWithZod(formData, { schema: signInSchema() });
    expect(submission.status === "success" && submission.value.username).toBe("ana@ejemplo.mx");
  });
});

describe("password rules (spec §5 and the pool's policy)", () => {
  it("reports every broken rule", () => {
    expect(passwordProblems("abc", policy)).toEqual([
      "validation.passwordMinLength",
      "validation.passwordUpper",
      "validation.passwordNumber",
      "validation.passwordSpecial",
    ]);
    expect(passwordProblems(GOOD, policy)).toEqual([]);
  });
  it("accepts each of the spec's special characters, space included", () => {
    for (const special of "^$*.[]{}()?\"!@#%&/\\,><':;|_~`=+- ") {
      expect(passwordProblems(`Abcdefg1${special}x`, policy), special).toEqual([]);
    }
  });
  it("only asks for what the policy enables", () => {
    const lenient = {
      ...policy,
      requireLowercase: false,
      requireUppercase: false,
      requireNumbers: false,
      requireSymbols: false,
    };
    expect(passwordProblems("abcdefgh", lenient)).toEqual([]);
    expect(passwordProblems("abcdefg", lenient)).toEqual(["validation.passwordMinLength"]);
  });
  it("refuses leading or trailing spaces", () => {
    expect(passwordProblems(` ${GOOD}`, policy)).toContain("validation.passwordFormat");
  });
  it("says the minimum in Spanish", () => {
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), {
        username: "a@b.mx",
        password: "Ab1-",
        confirm_password: "Ab1-",
      }).password,
    ).toEqual(["La contraseña debe tener al menos 8 caracteres."]);
  });
});

describe("sign-up", () => {
  it("accepts a complete form", () => {
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), {
        username: "a@b.mx",
        password: GOOD,
        confirm_password: GOOD,
      }),
    ).toEqual({});
  });
  it("“Las contraseñas deben coincidir” when both are filled and differ", () => {
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), {
        username: "a@b.mx",
        password: GOOD,
        confirm_password: `${GOOD}!`,
      }).confirm_password,
    ).toEqual(["Las contraseñas deben coincidir."]);
    // Said even before the e-mail is typed, so the customer sees it while typing.
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), {
        password: GOOD,
        confirm_password: `${GOOD}!`,
      }).confirm_password,
    ).toEqual(["Las contraseñas deben coincidir."]);
    expect(passwordsMismatch("abcdef", "abcdeg")).toBe(true);
    expect(passwordsMismatch("abc", "")).toBe(false);
  });
  it("asks for the confirmation", () => {
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), { username: "a@b.mx", password: GOOD })
        .confirm_password,
    ).toEqual(["Confirma tu contraseña."]);
  });
  it("checks the optional phone with the chosen country's rules (Mexico by default)", () => {
    const base = { username: "a@b.mx", password: GOOD, confirm_password: GOOD };
    expect(errorsOf(signUpSchema(policy, PHONE_RULES), base)).toEqual({});
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), { ...base, phone_number: "55 1234 5678" }),
    ).toEqual({});
    expect(
      errorsOf(signUpSchema(policy, PHONE_RULES), { ...base, phone_number: "55 1234" })
        .phone_number,
    ).toEqual(["Formato de número de teléfono no válido."]);
  });

  it("accepts a +1 (US) and a +34 (Spain) number and sends them to Cognito in E.164", () => {
    const base = { username: "a@b.mx", password: GOOD, confirm_password: GOOD };
    const us = { ...base, country_code: "US", phone_number: "(202) 555-0123" };
    const spain = { ...base, country_code: "ES", phone_number: "612 34 56 78" };
    expect(errorsOf(signUpSchema(policy, PHONE_RULES), us)).toEqual({});
    expect(errorsOf(signUpSchema(policy, PHONE_RULES), spain)).toEqual({});
    expect(normalizePhoneNumber("US", us.phone_number)).toBe("+12025550123");
    expect(normalizePhoneNumber("ES", spain.phone_number)).toBe("+34612345678");
    expect(normalizePhoneNumber("MX", "(55) 1234-5678")).toBe("+525512345678");
    const parsed = parseWithZod(formDataOf(spain), {
      schema: signUpSchema(policy, PHONE_RULES),
    });
    expect(parsed.status === "success" && parsed.value.country_code).toBe("ES");
  });

  it("refuses a malformed number, or one of another country, in Spanish next to the phone", () => {
    const base = { username: "a@b.mx", password: GOOD, confirm_password: GOOD };
    for (const [country_code, phone_number] of [
      ["US", "555-01"],
      ["ES", "12 34"],
      ["ES", "abc def ghi"],
      ["MX", "55 1234 5678 90"],
      // A Spanish number typed under the US is not a US number.
      ["US", "+34 612 34 56 78"],
    ]) {
      expect(
        errorsOf(signUpSchema(policy, PHONE_RULES), { ...base, country_code, phone_number })
          .phone_number,
        `${country_code} ${phone_number}`,
      ).toEqual(["Formato de número de teléfono no válido."]);
    }
  });

  it("refuses a country not in the list, and still reads a calling code an older page sent", () => {
    const base = { username: "a@b.mx", password: GOOD, confirm_password: GOOD };
    for (const country_code of ["+999", "ZZ", "mx", "52"]) {
      expect(
        errorsOf(signUpSchema(policy, PHONE_RULES), {
          ...base,
          country_code,
          phone_number: "5512345678",
        }).country_code,
        country_code,
      ).toEqual(["Elige un país de la lista."]);
    }
    const legacy = { ...base, country_code: "+1", phone_number: "2025550123" };
    expect(errorsOf(signUpSchema(policy, PHONE_RULES), legacy)).toEqual({});
    expect(normalizePhoneNumber("+1", "202 555 0123")).toBe("+12025550123");
  });
});

describe("the countries offered next to the phone", () => {
  const options = countryOptions();

  it("are every country libphonenumber-js knows, Mexico (+52) first and by default", () => {
    expect(options).toHaveLength(getCountries().length);
    expect(options[0]).toEqual({ value: "MX", name: "México", callingCode: "52" });
    expect(DEFAULT_COUNTRY).toBe("MX");
    expect(new Set(options.map((option) => option.value)).size).toBe(options.length);
  });

  it("are named in Spanish and sorted with Spanish collation after Mexico", () => {
    const byValue = new Map(options.map((option) => [option.value, option]));
    expect(byValue.get("US")).toEqual({ value: "US", name: "Estados Unidos", callingCode: "1" });
    expect(byValue.get("ES")).toEqual({ value: "ES", name: "España", callingCode: "34" });
    expect(byValue.get("CA")?.callingCode).toBe("1");
    const rest = options.slice(1).map((option) => option.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, "es")));
    // Accents do not send a country to the end: Perú before Polonia.
    expect(rest.indexOf("Perú")).toBeLessThan(rest.indexOf("Polonia"));
    expect(rest.indexOf("Estados Unidos")).toBeLessThan(rest.indexOf("Etiopía"));
  });
});

describe("a custom challenge's answer", () => {
  it("takes any non-empty answer, as the pool's own check decides", () => {
    const schema = confirmSignInSchema("custom");
    expect(errorsOf(schema, { confirmation_code: "azul" })).toEqual({});
    expect(errorsOf(schema, { confirmation_code: "12345678" })).toEqual({});
    expect(errorsOf(schema, { confirmation_code: "   " }).confirmation_code).toEqual([
      "Escribe tu respuesta.",
    ]);
    expect(errorsOf(schema, { confirmation_code: "x".repeat(2049) }).confirmation_code).toEqual([
      "Tu respuesta es demasiado larga.",
    ]);
  });
});

describe("codes", () => {
  it.each([
    ["confirm sign-up", confirmSignUpSchema(), { username: "a@b.mx" }],
    ["confirm sign-in", confirmSignInSchema(), {}],
    ["setup TOTP", setupTotpSchema(), {}],
    ["confirm verify-user", confirmVerifyUserSchema(), {}],
  ])("%s needs the 6-digit code", (_name, schema, values) => {
    expect(errorsOf(schema, values).confirmation_code).toEqual([
      "Escribe el código de verificación.",
    ]);
    expect(errorsOf(schema, { ...values, confirmation_code: "12a456" }).confirmation_code).toEqual([
      "Código de verificación no válido: escribe los 6 dígitos.",
    ]);
    expect(errorsOf(schema, { ...values, confirmation_code: " 123456 " })).toEqual({});
  });
  it("resend and forgot-password need only the username", () => {
    expect(errorsOf(usernameOnlySchema(), {})).toEqual({
      username: ["Escribe tu correo electrónico."],
    });
  });
  it("reset confirmation needs username, code, new password and its confirmation", () => {
    expect(Object.keys(errorsOf(confirmResetPasswordSchema(policy), {})).sort()).toEqual([
      "confirm_password",
      "confirmation_code",
      "password",
      "username",
    ]);
  });
});

describe("force new password", () => {
  it("asks for the attributes Cognito requires", () => {
    const schema = forceNewPasswordSchema(policy, ["name", "birthdate"]);
    expect(
      errorsOf(schema, { password: GOOD, confirm_password: GOOD, birthdate: "21/05/1990" }),
    ).toEqual({
      name: ["Este dato es obligatorio."],
      birthdate: ["Escribe la fecha como AAAA-MM-DD."],
    });
    expect(
      errorsOf(schema, {
        password: GOOD,
        confirm_password: GOOD,
        name: "Ana",
        birthdate: "1990-05-21",
      }),
    ).toEqual({});
  });

  it("a pool's own required attributes (custom:…) are asked for too, and only well-formed names", () => {
    const listed = JSON.stringify([
      "userAttributes.custom:rfc",
      "userAttributes.given_name",
      "userAttributes.custom:not allowed!",
      "userAttributes.custom:a_name_far_too_long_for_cognito",
      "userAttributes.email_verified",
    ]);
    const attributes = requiredAttributesOf(listed);
    expect(attributes).toEqual(["custom:rfc", "given_name"]);
    expect(requiredAttributeResponseKey("custom:rfc")).toBe("userAttributes.custom:rfc");
    const schema = forceNewPasswordSchema(policy, attributes);
    expect(errorsOf(schema, { password: GOOD, confirm_password: GOOD, given_name: "Ana" })).toEqual(
      { "custom:rfc": ["Este dato es obligatorio."] },
    );
    expect(
      errorsOf(schema, {
        password: GOOD,
        confirm_password: GOOD,
        given_name: "Ana",
        "custom:rfc": "x".repeat(2049),
      }),
    ).toEqual({ "custom:rfc": ["Este dato es demasiado largo."] });
    expect(requiredAttributesOf("not json")).toEqual([]);
  });

  it("labels a pool's own attribute in Spanish: from the locale file, or naming it", () => {
    expect(requiredAttributeLabel(t, "custom:rfc")).toBe("RFC");
    expect(requiredAttributeLabel(t, "custom:sucursal")).toBe(
      "Dato adicional que pide tu cuenta (sucursal)",
    );
    expect(requiredAttributeLabel(t, "given_name")).toBe("Nombre");
  });
});

describe("MFA choices", () => {
  it("MFA type is TOTP, SMS or EMAIL", () => {
    expect(errorsOf(selectMfaTypeSchema(), { mfa_type: "TOTP" })).toEqual({});
    expect(errorsOf(selectMfaTypeSchema(), { mfa_type: "PUSH" }).mfa_type).toEqual([
      "Elige un método de verificación.",
    ]);
    expect(errorsOf(mfaPreferenceSchema(), { mfa_type: "NONE" })).toEqual({});
  });
  it("an MFA setup answer is EMAIL, TOTP, a digits-only code or an address with @", () => {
    const schema = mfaSetupResponseSchema();
    for (const ok of ["EMAIL", "TOTP", "123456", "ana@ejemplo.mx"])
      expect(schema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["SMS", "12ab", "ana"])
      expect(schema.safeParse(bad).success, bad).toBe(false);
  });
  it("setup-email needs an address", () => {
    expect(errorsOf(setupEmailSchema(), { email: "sin-arroba" }).email).toEqual([
      "Escribe un correo electrónico válido, por ejemplo nombre@correo.com.",
    ]);
  });
  it("verify-user chooses email or phone", () => {
    expect(errorsOf(verifyUserSchema(), { unverifiedAttr: "email" })).toEqual({});
    expect(errorsOf(verifyUserSchema(), {}).unverifiedAttr).toEqual([
      "Elige qué dato quieres verificar.",
    ]);
  });
});
