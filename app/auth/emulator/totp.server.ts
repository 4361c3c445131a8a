import { authenticator } from "otplib";

/**
 * Authenticator-app codes (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) through otplib. Only
 * the embedded emulator checks codes itself; real Cognito does that on its side.
 */

export const TOTP_STEP_SECONDS = 30;
/** One step either side, for phones whose clocks differ a little. */
const totp = authenticator.clone({ step: TOTP_STEP_SECONDS, digits: 6, window: 1 });

/** A new shared secret: 160 random bits in base32, like Cognito's SecretCode. */
export function generateTotpSecret(): string {
  return totp.generateSecret(20);
}

/** The code an authenticator app shows for this secret at this moment. */
export function totpCode(secret: string, timeMs: number): string {
  return totp.clone({ epoch: timeMs }).generate(secret);
}

/**
 * The time step the code belongs to, or null when it matches none. Steps up to `usedStep` are
 * refused, so a code works once (as Cognito does).
 */
export function matchTotp(
  secret: string,
  code: string,
  nowMs: number,
  options: { usedStep?: number } = {},
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp.clone({ epoch: nowMs }).checkDelta(code, secret);
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS) + delta;
  return options.usedStep !== undefined && step <= options.usedStep ? null : step;
}
