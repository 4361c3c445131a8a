import type { LoaderFunctionArgs } from "react-router";
import { finishSocialSignIn } from "~/auth/oauth.server";
import { requestContext } from "~/lib/router-context.server";

/** Where Cognito's hosted pages send the customer back (the registered redirect_uri). */
export function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return finishSocialSignIn(context, request);
}
