import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveDownloadProgressInfo } from "~/esim/download-progress-request.server";

/** The SM-DP+'s ES2+ HandleDownloadProgressInfo notifications: a resource route, no page. */
export function action({ request, context }: ActionFunctionArgs) {
  return receiveDownloadProgressInfo(context, request);
}
