import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "~/auth/flow.server";
import { setFlash } from "~/lib/flash.server";

/** Sign-out is a POST (the navigation's form); a typed address just goes home. */
export function loader() {
  return redirect("/", { status: 303 });
}

export async function action({ context }: ActionFunctionArgs) {
  await signOut(context);
  setFlash(context, { kind: "success", key: "auth:flash.signedOut" });
  return redirect("/", { status: 303 });
}
