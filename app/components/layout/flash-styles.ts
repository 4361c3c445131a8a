import type { ShellData } from "~/lib/shell";

export type ShownFlash = NonNullable<ShellData["flash"]>;

export const flashStyles: Record<ShownFlash["kind"], string> = {
  success: "border-primary bg-primary-soft text-primary-dark",
  error: "border-error bg-error-soft text-error",
  info: "border-secondary bg-secondary-soft text-secondary-dark",
};

/** A message's action, in the page and in a toast: a link that looks like one. */
export const flashActionClass =
  "shrink-0 rounded font-semibold underline underline-offset-4 hover:no-underline";
