import type { ActionFunctionArgs } from "@remix-run/node";
import { receivePaymentNotification } from "~/payments/webhook-request.server";

/** The payment provider's notifications: a resource route, no page. */
export function action({ request, params, context }: ActionFunctionArgs) {
  return receivePaymentNotification(context, request, params.provider);
}
