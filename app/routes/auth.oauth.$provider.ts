import type { LoaderFunctionArgs } from "react-router";
import { startSocialSignIn } from "~/auth/oauth.server";
import { requestContext } from "~/lib/router-context.server";

/**
 * A social sign-in button's target (a plain link, so it works without JavaScript): to the
 * provider through Cognito's hosted pages. app/auth/oauth.server.ts holds the logic.
 */
export function loader({ request, context: routerContext, params }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return startSocialSignIn(context, request, params.provider);
}
