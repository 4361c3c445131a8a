import QRCode from "qrcode";
import type { Logger } from "pino";
import { QR_SIZE_PX } from "./qr";

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
