import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import type { Flash } from "./flash";

export const flashSchema: z.ZodType<Flash> = z.object({
  kind: z.enum(["success", "error", "info"]),
  key: z.string().max(200),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** Set-Cookie headers that carry a message to the next page the customer sees. */
export function flashHeaders(context: AppLoadContext, request: Request, flash: Flash): Headers {
  const headers = new Headers();
  for (const cookie of context.cookies.flash.write(flash, request.headers.get("Cookie"))) {
    headers.append("Set-Cookie", cookie);
  }
  return headers;
}

/** Reads the pending message, if any, and the headers that consume it. */
export function takeFlash(
  context: AppLoadContext,
  request: Request,
): { flash: Flash | null; headers: Headers } {
  const cookieHeader = request.headers.get("Cookie");
  const headers = new Headers();
  const flash = context.cookies.flash.read(cookieHeader);
  if (flash || cookieHeader?.includes(context.cookies.flash.name)) {
    for (const cookie of context.cookies.flash.clear(cookieHeader)) {
      headers.append("Set-Cookie", cookie);
    }
  }
  return { flash, headers };
}
