import { simsOfOrder } from "~/checkout/order-sims";
import type { Order } from "~/checkout/orders.server";
import {
  lineActivationView,
  portInActivationRef,
  type LineActivationView,
} from "~/line/activations.server";
import { activationJobId } from "~/line/line-jobs.server";
import { maskPhoneNumber } from "./numbers";
import { orderPortIns, type OrderPortIn } from "./order-port-ins.server";
import { PORTABILITY_PATH } from "./paths";
import { rememberPortabilityRequest } from "./request-access.server";
import type { RequestContext } from "~/context";

/** A number an order keeps, as its page shows it: nothing the order's page may not. */
export interface OrderPortInView {
  position: number;
  planName: string;
  /** The number masked, as the portability pages show it. */
  line: string;
  carrier: string;
  state: OrderPortIn["state"];
  reason: OrderPortIn["reason"];
  request:
    | (NonNullable<OrderPortIn["request"]> & {
        /** Its status page: the request's own result page, open in this browser. */
        href: string;
      })
    | null;
  /** The ported number's line, once the port completed and its activation was queued. */
  portedLine: LineActivationView | null;
}

/** The request's page on /portabilidad, by folio: shown where the cookie lists its id. */
export function portabilityRequestHref(folio: string): string {
  return `${PORTABILITY_PATH}?solicitud=${encodeURIComponent(folio)}`;
}

/**
 * The numbers the order keeps, for its page (decision 0106). Whoever may see the order may see
 * the requests it filed: each is remembered in this browser's portability cookie, so that the
 * link to its status page shows it in full, as it shows a request sent from /portabilidad.
 */
export async function loadOrderPortIns(
  context: RequestContext,
  order: Order,
): Promise<OrderPortInView[]> {
  const portIns = await orderPortIns(context.db, order.ref);
  if (portIns.length === 0) return [];
  const sims = simsOfOrder(order);
  const views: OrderPortInView[] = [];
  for (const portIn of portIns) {
    if (portIn.request) rememberPortabilityRequest(context, portIn.id);
    views.push({
      position: portIn.position,
      planName: sims.find((sim) => sim.position === portIn.position)?.planName ?? "",
      line: maskPhoneNumber(portIn.phoneNumber),
      carrier: portIn.currentCarrier,
      state: portIn.state,
      reason: portIn.reason,
      request: portIn.request
        ? { ...portIn.request, href: portabilityRequestHref(portIn.request.folio) }
        : null,
      portedLine:
        portIn.request?.status === "completed"
          ? await lineActivationView(context.db, activationJobId(portInActivationRef(portIn.id)))
          : null,
    });
  }
  return views;
}
