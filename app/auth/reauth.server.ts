import { redirect } from "react-router";
import { setFlash } from "~/lib/flash.server";
import { isRecentAuthentication } from "./reauth";
import { safeRedirectPath } from "./redirect";
import { authenticatedAtOf } from "./tokens";
import type { RequestContext } from "~/context";

/** The page that asks the password again, then sends the customer back (decision 0134). */
export const REAUTH_PATH = "/my-account/confirmar-identidad";

export function reauthPathFor(returnTo: string): string {
  return `${REAUTH_PATH}?redirectTo=${encodeURIComponent(safeRedirectPath(returnTo))}`;
}

/**
 * The one guard of every sensitive change: null when this session's customer authenticated
 * recently; otherwise the answer that asks for the password first and then brings the customer
 * back to `returnTo`, where they carry on. Nothing of the change has been done.
 */
export function requireRecentAuthentication(
  context: RequestContext,
  returnTo: string,
): Response | null {
  const tokens = context.session?.tokens;
  if (!tokens) return null;
  if (isRecentAuthentication(authenticatedAtOf(tokens), Date.now())) return null;
  setFlash(context, { kind: "info", key: "auth:flash.reauthRequired" });
  return redirect(reauthPathFor(returnTo), { status: 303 });
}

/** The customer proved who they are again: the session says so from now on. */
export function markAuthenticatedNow(context: RequestContext) {
  const { session } = context;
  if (!session) return;
  const tokens = { ...session.tokens, authenticatedAt: Date.now() };
  context.session = { ...session, tokens };
  context.jar.set(context.cookies.authSession, tokens);
}
