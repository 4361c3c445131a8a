import type { LoaderFunctionArgs } from "@remix-run/node";
import { startSocialSignIn } from "~/auth/oauth.server";

/**
 * A social sign-in button's target (a plain link, so it works without JavaScript): to the
 * provider through Cognito's hosted pages. app/auth/oauth.server.ts holds the logic.
 */
export function loader({ request, context, params }: LoaderFunctionArgs) {
  return startSocialSignIn(context, request, params.provider);
}
