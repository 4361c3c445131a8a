import type { ActionFunctionArgs } from "react-router";
import { receiveDownloadProgressInfo } from "~/esim/download-progress-request.server";
import { requestContext } from "~/lib/router-context.server";

/** The SM-DP+'s ES2+ HandleDownloadProgressInfo notifications: a resource route, no page. */
export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return receiveDownloadProgressInfo(context, request);
}
