import QRCode from "qrcode";
import type { Logger } from "pino";

/** Spec §9: the QR image is 228 × 228 px with error correction M. */
export const QR_SIZE_PX = 228;

/** The key URI authenticator apps read (Google's "Key Uri Format"). */
export function totpUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}`;
}

/**
 * The QR as a PNG data URL, drawn on the server so that it shows without JavaScript. A drawing
 * failure is logged (spec §8) and the page falls back to the secret alone.
 */
export async function qrDataUrl(text: string, logger: Logger): Promise<string | null> {
  try {
    return await QRCode.toDataURL(text, {
      errorCorrectionLevel: "M",
      width: QR_SIZE_PX,
      margin: 2,
    });
  } catch (error) {
    logger.error({ err: error }, "QR drawing failed");
    return null;
  }
}
