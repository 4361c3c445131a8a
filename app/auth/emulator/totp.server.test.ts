import { describe, expect, it } from "vitest";
import { generateTotpSecret, matchTotp, totpCode } from "./totp.server";

describe("authenticator-app codes (RFC 6238)", () => {
  it("makes secrets like Cognito's: 160 bits in base32", () => {
    expect(generateTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it("matches RFC 6238's SHA-1 test vector", () => {
    // "12345678901234567890" in base32; appendix B, T = 59 s → 94287082, whose last six digits apps show.
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(totpCode(secret, 59_000)).toBe("287082");
  });

  it("accepts one step either side, not two, and a code only once", () => {
    const secret = generateTotpSecret();
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, now - 60_000), now)).toBeNull();
    expect(matchTotp(secret, "12345", now)).toBeNull();
    expect(matchTotp(secret, "abcdef", now)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now), now)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, now), now, { usedStep: step })).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now, { usedStep: step })).toBe(
      step + 1,
    );
  });
});
