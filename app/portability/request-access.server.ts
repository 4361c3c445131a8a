import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";

/**
 * The requests this browser just submitted, so that the page after the redirect can show the
 * folio, the line and the e-mail address. Short-lived: afterwards the customer uses the status
 * lookup (folio and number), which shows nothing personal.
 */
export interface PortabilityAccess {
  ids: string[];
}

export const PORTABILITY_ACCESS_MAX_AGE_SECONDS = 60 * 60;
const MAX_REMEMBERED_REQUESTS = 5;

export const portabilityAccessSchema: z.ZodType<PortabilityAccess> = z.object({
  ids: z.array(z.string().min(16).max(64)).max(MAX_REMEMBERED_REQUESTS),
});

export function readPortabilityAccess(context: AppLoadContext, request: Request): string[] {
  return context.cookies.portability.read(request.headers.get("Cookie"))?.ids ?? [];
}

/** Set-Cookie headers that add a request to what this browser may see; the oldest is forgotten. */
export function rememberPortabilityRequest(
  context: AppLoadContext,
  request: Request,
  id: string,
): Headers {
  const ids = readPortabilityAccess(context, request).filter((known) => known !== id);
  const headers = new Headers();
  const value = { ids: [...ids, id].slice(-MAX_REMEMBERED_REQUESTS) };
  for (const cookie of context.cookies.portability.write(value, request.headers.get("Cookie"))) {
    headers.append("Set-Cookie", cookie);
  }
  return headers;
}
