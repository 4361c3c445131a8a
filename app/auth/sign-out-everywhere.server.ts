import { endSession, SESSION_MAX_AGE_SECONDS } from "./session.server";
import { signOutAccountEverywhere } from "./revoked-access.server";
import { noticeSecurityChange } from "./security-notices.server";
import type { RequestContext } from "~/context";

/**
 * Every session of an account ends (decision 0134): after a password reset, and when the
 * customer asks for it ("Cerrar sesión en todos los dispositivos"). The store records the time,
 * which every signed-in request checks with its sign-outs (browser-access.server.ts), so a copy
 * of an old session cookie opens nothing from its next request on, whatever Cognito says of its
 * tokens.
 */
export async function recordAccountSignOut(
  context: RequestContext,
  email: string,
): Promise<boolean> {
  try {
    await signOutAccountEverywhere(context.db, {
      email,
      at: new Date(),
      keepForMs: SESSION_MAX_AGE_SECONDS * 1000,
    });
    return true;
  } catch (error) {
    context.logger.error(
      { err: error, requestId: context.requestId },
      "sign-out of every session not recorded: sessions from before stay open until they expire",
    );
    return false;
  }
}

/**
 * "Cerrar sesión en todos los dispositivos": Cognito revokes every refresh token and access
 * token of the account (GlobalSignOut), the store ends every session, this one included.
 * An identity service that cannot be reached does not stop it: the store's record alone
 * closes the sessions here.
 */
export async function signOutEverywhere(context: RequestContext): Promise<boolean> {
  const session = context.session;
  if (!session) return false;
  try {
    await context.identity.client.globalSignOut(session.tokens.accessToken);
  } catch (error) {
    context.logger.warn({
      msg: "global sign-out refused or unreachable; the store ends the sessions",
      requestId: context.requestId,
      code: (error as { code?: unknown } | null)?.code ?? "unexpected",
    });
  }
  const recorded = await recordAccountSignOut(context, session.customer.email);
  await noticeSecurityChange(context, session.customer.email, "signed_out_everywhere");
  await endSession(context);
  return recorded;
}
