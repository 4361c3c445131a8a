import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOutHeaders } from "~/auth/flow.server";
import { readSession } from "~/auth/session.server";

/** Sign-out is a POST (the navigation's form); a typed address just goes home. */
export function loader() {
  return redirect("/", { status: 303 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tokens = readSession(context, request);
  if (tokens) {
    try {
      // Revokes the refresh token and the access tokens issued from it.
      await context.identity.client.revokeToken(tokens.refreshToken);
    } catch (error) {
      // Not supported, unreachable or already revoked: the cookies go anyway.
      context.logger.info(
        { requestId: context.requestId, code: (error as { code?: string }).code ?? "unknown" },
        "token revocation failed; signing out locally",
      );
    }
  }
  return redirect("/", {
    status: 303,
    headers: signOutHeaders(context, request, { kind: "success", key: "auth:flash.signedOut" }),
  });
}
