/**
 * A path on this site taken from user input (`redirectTo`), or the fallback. Another origin, a
 * protocol-relative `//host`, backslash tricks and control characters all fall back, so the
 * value can never send a customer to another site.
 */
export function sameSitePath(
  value: FormDataEntryValue | null | undefined,
  fallback: string,
): string {
  if (typeof value !== "string") return fallback;
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return fallback;
  // Control characters could smuggle a header or confuse a parser.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return fallback;
  try {
    const parsed = new URL(path, "http://same.site");
    if (parsed.origin !== "http://same.site") return fallback;
    return `${parsed.pathname}${parsed.search}${parsed.hash}`;
  } catch {
    return fallback;
  }
}
