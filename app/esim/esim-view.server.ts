import type { AppLoadContext } from "@remix-run/node";
import type { Order } from "~/checkout/orders.server";
import { getFixedT } from "~/i18n/i18n.server";
import { ensureEsimActivations } from "./activations.server";
import { activationQrSvg } from "./qr.server";

/**
 * A paid eSIM order's activation codes, each with its QR code drawn on the server as SVG and
 * shown as an image (a data URL, like the authenticator's QR): no JavaScript, no inline markup.
 */
export async function esimView(context: AppLoadContext, order: Order) {
  if (order.status !== "paid" || order.simType !== "esim") return null;
  const result = await ensureEsimActivations(context.db, context.esim, context.logger, order);
  if (result.status !== "ready") return { status: result.status, activations: [] };
  const t = getFixedT("commerce");
  const activations = await Promise.all(
    result.activations.map(async (activation) => {
      const label = t("confirmation.esim.qrLabel", { number: activation.position + 1 });
      const svg = await activationQrSvg(activation.activationCode, { label });
      return {
        ...activation,
        qrLabel: label,
        qrSrc: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
      };
    }),
  );
  return { status: result.status, activations };
}
