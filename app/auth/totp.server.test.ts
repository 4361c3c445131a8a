import { authenticator } from "otplib";
import { describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  matchTotp,
  totpCode,
  verifyTotp,
} from "./totp.server";

describe("TOTP (RFC 6238)", () => {
  it("computes the codes authenticator apps show (checked against otplib)", () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    for (const epoch of [0, 59_000, 1_111_111_109_000, Date.now()]) {
      expect(totpCode(secret, epoch)).toBe(authenticator.clone({ epoch }).generate(secret));
    }
  });

  it("matches RFC 6238's SHA-1 test vector", () => {
    const secret = base32Encode(Buffer.from("12345678901234567890"));
    // RFC 6238 appendix B, T = 59 s → 94287082 (8 digits); the 6-digit code is its last six.
    expect(totpCode(secret, 59_000)).toBe("287082");
  });

  it("round-trips base32", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 255, 17]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  });

  it("accepts one step either side, not two, and a code only once", () => {
    const secret = generateTotpSecret();
    const now = 1_700_000_000_000;
    expect(verifyTotp(secret, totpCode(secret, now - 30_000), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now + 30_000), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now - 60_000), now)).toBe(false);
    expect(verifyTotp(secret, "12345", now)).toBe(false);
    const step = matchTotp(secret, totpCode(secret, now), now)!;
    expect(matchTotp(secret, totpCode(secret, now), now, { usedStep: step })).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now, { usedStep: step })).toBe(
      step + 1,
    );
  });
});
