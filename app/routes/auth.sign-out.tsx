import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "~/auth/flow.server";
import { hostedLogoutUrl } from "~/auth/oauth.server";
import { setFlash } from "~/lib/flash.server";

/** Sign-out is a POST (the navigation's form); a typed address just goes home. */
export function loader() {
  return redirect("/", { status: 303 });
}

export async function action({ context }: ActionFunctionArgs) {
  // Read before the session ends: a social sign-in also ends at the hosted domain, which then
  // sends the browser home (decision 0069).
  const hostedLogout = await hostedLogoutUrl(context);
  await signOut(context);
  setFlash(context, { kind: "success", key: "auth:flash.signedOut" });
  return redirect(hostedLogout ?? "/", { status: 303 });
}
