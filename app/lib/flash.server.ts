import * as z from "zod";
import type { Flash } from "./flash";
import type { SealedCookieSpec } from "./sealed-cookie.server";
import type { RequestContext } from "~/context";

export const flashSchema: z.ZodType<Flash> = z.object({
  kind: z.enum(["success", "error", "info"]),
  key: z.string().max(200),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  // A page of this site only: a path, never another host ("//host" included).
  action: z
    .object({
      href: z
        .string()
        .max(200)
        .regex(/^\/(?![/\\])/),
      labelKey: z.string().max(200).optional(),
    })
    .optional(),
});

/** A message for the next page: read once, within a minute. */
export const flashCookieSpec: SealedCookieSpec<Flash> = {
  name: "flash",
  maxAgeSeconds: 60,
  schema: flashSchema,
};

/** A message for the next page the customer sees. */
export function setFlash(context: RequestContext, flash: Flash) {
  context.jar.set(context.cookies.flash, flash);
}

/** The pending message, if any; it is gone once the page showing it is rendered. */
export function takeFlash(context: RequestContext): Flash | null {
  return context.jar.consume(context.cookies.flash);
}
