import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishSocialSignIn } from "~/auth/oauth.server";

/** Where Cognito's hosted pages send the customer back (the registered redirect_uri). */
export function loader({ request, context }: LoaderFunctionArgs) {
  return finishSocialSignIn(context, request);
}
