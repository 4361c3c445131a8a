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
  if (typeof value !== "string") return fallback;
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return fallback;
  // Control characters could smuggle a header or confuse a parser.
  if (/[\u0000-\u001f\u007f]/.test(path)) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(path, "http://same.site");
  } catch {
    return fallback;
  }
  if (parsed.origin !== "http://same.site") return fallback;
  if (parsed.pathname === "/auth" || parsed.pathname.startsWith("/auth/")) return fallback;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** The sign-in address that comes back to `path` afterwards. */
export function signInPathFor(path: string): string {
  return `/auth/sign-in?redirectTo=${encodeURIComponent(safeRedirectPath(path))}`;
}
