import { redirect } from "react-router";
import { setFlash } from "~/lib/flash.server";
import { signOut } from "./flow.server";
import { hostedLogoutUrl } from "./oauth.server";
import type { RequestContext } from "~/context";

/** The navigation's sign-out button: the session and this browser's access end (decision 0056). */
export async function submitSignOut(context: RequestContext) {
  // Read before the session ends: a social sign-in also ends at the hosted domain, which then
  // sends the browser home (decision 0069).
  const hostedLogout = await hostedLogoutUrl(context);
  await signOut(context);
  setFlash(context, { kind: "success", key: "auth:flash.signedOut" });
  return redirect(hostedLogout ?? "/", { status: 303 });
}
