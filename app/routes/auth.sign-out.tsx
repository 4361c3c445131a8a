import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { submitSignOut } from "~/auth/sign-out-request.server";

/** Sign-out is a POST (the navigation's form); a typed address just goes home. */
export function loader() {
  return redirect("/", { status: 303 });
}

export function action({ context }: ActionFunctionArgs) {
  return submitSignOut(context);
}
