/**
 * A path on this site taken from user input (`redirectTo`), or the fallback. The value is
 * normalised first (dot segments resolved, as a browser would) and checked afterwards: another
 * origin, a protocol-relative `//host` however it is spelled (`/..//host`, `/%2e%2e//host`),
 * backslashes and control characters all fall back, so the value can never send a customer to
 * another site.
 */
export function sameSitePath(
  value: FormDataEntryValue | null | undefined,
  fallback: string,
): string {
  if (typeof value !== "string") return fallback;
  const path = value.trim();
  if (!path.startsWith("/") || path.includes("\\")) return fallback;
  // Control characters could smuggle a header or confuse a parser.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(path, "http://same.site");
  } catch {
    return fallback;
  }
  if (parsed.origin !== "http://same.site") return fallback;
  const normalised = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  // What the browser resolves the Location against: it must still be a path, not `//host`.
  if (!normalised.startsWith("/") || normalised.startsWith("//")) return fallback;
  if (/^\/(%2f|%5c)/i.test(normalised)) return fallback;
  return normalised;
}
