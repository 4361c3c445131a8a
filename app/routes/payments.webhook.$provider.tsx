import type { ActionFunctionArgs } from "react-router";
import { receivePaymentNotification } from "~/payments/webhook-request.server";
import { requestContext } from "~/lib/router-context.server";

/** The payment provider's notifications: a resource route, no page. */
export function action({ request, params, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return receivePaymentNotification(context, request, params.provider);
}
