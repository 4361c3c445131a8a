import { redirect, type ActionFunctionArgs } from "react-router";
import { submitSignOut } from "~/auth/sign-out-request.server";
import { requestContext } from "~/lib/router-context.server";

/** Sign-out is a POST (the navigation's form); a typed address just goes home. */
export function loader() {
  return redirect("/", { status: 303 });
}

export function action({ context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitSignOut(context);
}
