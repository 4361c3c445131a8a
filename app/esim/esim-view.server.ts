import type { Order } from "~/checkout/orders.server";
import { getFixedT } from "~/i18n/i18n.server";
import { orderLineActivations } from "~/line/activations.server";
import { ensureEsimActivations } from "./activations.server";
import { activationQrSvg } from "./qr.server";
import type { RequestContext } from "~/context";

/**
 * A paid eSIM order's eSIMs for a page that may show its codes (decision 0082): a code waiting
 * for a phone with its QR code drawn on the server as SVG and shown as an image (a data URL, like
 * the authenticator's QR: no JavaScript, no inline markup); an installed one without its code,
 * with its line: being activated, or its number.
 */
export async function esimView(context: RequestContext, order: Order) {
  if (order.status !== "paid" || order.simType !== "esim") return null;
  const result = await ensureEsimActivations(context.db, context.esim, context.logger, order);
  if (result.status !== "ready") return { status: result.status, activations: [] };
  const t = getFixedT("commerce");
  const lines = await orderLineActivations(
    context.db,
    "esim",
    order.ref,
    result.activations.filter((each) => each.state === "installed").map((each) => each.position),
  );
  const activations = await Promise.all(
    result.activations.map(async ({ activationCode, ...activation }) => {
      const line = lines.get(activation.position) ?? null;
      if (activationCode === null) return { ...activation, line, code: null };
      const label = t("confirmation.esim.qrLabel", { number: activation.position + 1 });
      const svg = await activationQrSvg(activationCode, { label });
      return {
        ...activation,
        line,
        code: {
          activationCode,
          qrLabel: label,
          qrSrc: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
        },
      };
    }),
  );
  return {
    status: result.status,
    activations,
    simulatesInstallation: context.esim.simulatesInstallation,
  };
}
