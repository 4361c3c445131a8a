import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * Signatures of the sandbox's notifications, in the style of the big providers:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. The timestamp is signed too, so an old
 * notification cannot be replayed as new (and a replay would change nothing anyway).
 */
export const SIGNATURE_HEADER = "x-sandbox-signature";
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A notification key derived from a session secret, bound to this one use. */
export function deriveNotificationKey(secret: string): Buffer {
  return Buffer.from(
    hkdfSync("sha256", secret, "storefront-payments", "sandbox-notifications", 32),
  );
}

function mac(key: Buffer, timestamp: number, body: string): Buffer {
  return createHmac("sha256", key).update(`${timestamp}.${body}`).digest();
}

export function signNotification(key: Buffer, body: string, now = new Date()): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${mac(key, timestamp, body).toString("hex")}`;
}

/** True when one of `keys` signed `body` within the tolerance. Constant-time comparison. */
export function verifyNotificationSignature(
  keys: readonly Buffer[],
  header: string | null,
  body: string,
  now = new Date(),
): boolean {
  if (!header) return false;
  const parts = new Map(
    header.split(",").map((part) => {
      const separator = part.indexOf("=");
      return [part.slice(0, separator).trim(), part.slice(separator + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get("t"));
  const signature = parts.get("v1") ?? "";
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const given = Buffer.from(signature, "hex");
  return keys.some((key) => timingSafeEqual(mac(key, timestamp, body), given));
}
