import { describe, expect, it } from "vitest";
import { emailProven } from "./email-trust.server";

const password = { emailVerified: true, identityProviders: [] };

describe("whose e-mail the store takes as proved", () => {
  it("a password account's, once Cognito says verified (only a code or an operator sets it)", () => {
    expect(emailProven(password, ["google"])).toBe(true);
    expect(emailProven(password, [])).toBe(true);
    expect(emailProven({ ...password, emailVerified: false }, ["google"])).toBe(false);
  });

  it("a social account's only when every provider behind it is trusted to verify addresses", () => {
    const google = { emailVerified: true, identityProviders: ["Google"] };
    expect(emailProven(google, ["google"])).toBe(true);
    expect(emailProven({ ...google, emailVerified: false }, ["google"])).toBe(false);
    expect(emailProven(google, [])).toBe(false);
    expect(emailProven({ emailVerified: true, identityProviders: ["Facebook"] }, ["google"])).toBe(
      false,
    );
    expect(
      emailProven({ emailVerified: true, identityProviders: ["Google", "Facebook"] }, ["google"]),
    ).toBe(false);
    expect(
      emailProven({ emailVerified: true, identityProviders: ["SignInWithApple"] }, ["apple"]),
    ).toBe(true);
    // An OIDC or SAML provider of the pool's own naming is never on the list.
    expect(emailProven({ emailVerified: true, identityProviders: ["MiEmpresa"] }, ["google"])).toBe(
      false,
    );
  });
});
