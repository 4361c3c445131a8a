import { sameSitePath } from "~/lib/same-site-path";

/** Where a customer lands after sign-in when no page asked for it. */
export const DEFAULT_AFTER_SIGN_IN = "/my-account";

/**
 * The `redirectTo` a page asked for, if it is a path on this site; anything else (another
 * origin, a protocol-relative `//host`, a backslash trick, the auth views themselves) falls back
 * to the account overview, so the parameter can never send a customer elsewhere.
 */
export function safeRedirectPath(
  value: FormDataEntryValue | string | null | undefined,
  fallback: string = DEFAULT_AFTER_SIGN_IN,
): string {
  const path = sameSitePath(value, fallback);
  const pathname = path.split(/[?#]/)[0];
  if (pathname === "/auth" || pathname.startsWith("/auth/")) return fallback;
  return path;
}

/** The sign-in address that comes back to `path` afterwards. */
export function signInPathFor(path: string): string {
  return `/auth/sign-in?redirectTo=${encodeURIComponent(safeRedirectPath(path))}`;
}
