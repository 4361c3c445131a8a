/** Headers every response carries. The nonce lets React Router's own inline scripts run, and only them. */
export function securityHeaders(options: {
  nonce: string;
  isProduction: boolean;
  isDevelopment: boolean;
  /** Other sites a form may lead to: the payment provider's hosted page. */
  formTargets?: readonly string[];
}): Record<string, string> {
  const connectSources = ["'self'", ...(options.isDevelopment ? ["ws://localhost:*"] : [])];
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}'`,
    // Stylesheets from the site only, and a <style> element only with this answer's nonce. No
    // 'unsafe-inline': a style attribute in the markup is refused (the pages write none; what
    // React sets from JavaScript, as the toasts' depth, goes through the CSSOM, which CSP leaves
    // alone), so injected markup cannot restyle a page (decision 0138).
    `style-src 'self' 'nonce-${options.nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSources.join(" ")}`,
    ["form-action 'self'", ...(options.formTargets ?? [])].join(" "),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": policy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  if (options.isProduction) {
    headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  }
  return headers;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request from another site's page is refused (decision 0005, revised in 0059):
 * - a browser that says the request is cross-site (`Sec-Fetch-Site`) is believed;
 * - an `Origin` must be one of this site's configured origins (scheme, host and port);
 * - without `Origin`, only requests without `Sec-Fetch-Site` either pass (old browsers, and the
 *   payment provider's server-to-server notifications), or a same-origin one.
 */
export function isCrossSiteWrite(options: {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  allowedOrigins: string[];
}): boolean {
  if (SAFE_METHODS.has(options.method.toUpperCase())) return false;
  const fetchSite = options.secFetchSite?.toLowerCase();
  if (fetchSite === "cross-site") return true;
  if (!options.origin) return fetchSite !== undefined && fetchSite !== "same-origin";
  if (options.origin === "null") return true;
  let origin: string;
  try {
    origin = new URL(options.origin).origin;
  } catch {
    return true;
  }
  return !options.allowedOrigins.includes(origin);
}

/**
 * Outside production only the site's own names are served. A page on another name that resolves
 * to this machine (DNS rebinding) could otherwise post forms whose Origin matches its own Host,
 * and read the development outbox's codes.
 */
export function isServedHost(host: string | undefined, allowedOrigins: string[]): boolean {
  if (!host) return false;
  return allowedOrigins.some((origin) => new URL(origin).host === host.toLowerCase());
}

/**
 * In production the site has one name, PUBLIC_BASE_URL's: a request to another name the same
 * server answers (www and the bare domain, an old domain) is sent there before any cookie is set,
 * since the order's access cookie, the session and the cart live under that one name (a payment
 * returns to it). GET and HEAD get a permanent redirect to the same path and query; any other
 * method is refused (its form would lose its body on the way, and its cookies are not there).
 * Behind trusted proxies the name is X-Forwarded-Host's first entry, which the proxy writes.
 */
export function publicHostAnswer(options: {
  method: string;
  host: string | undefined;
  forwardedHost: string | undefined;
  trustsProxy: boolean;
  publicOrigin: string;
  url: string;
}): { status: 301; location: string } | { status: 421 } | null {
  const forwarded = options.trustsProxy ? options.forwardedHost?.split(",")[0]?.trim() : "";
  const host = (forwarded || options.host || "").toLowerCase();
  if (host === new URL(options.publicOrigin).host) return null;
  const method = options.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") return { status: 421 };
  const path = options.url.startsWith("/") ? options.url : `/${options.url}`;
  return { status: 301, location: `${options.publicOrigin}${path}` };
}

/**
 * A write whose `Origin` names another host than the request's `X-Forwarded-Host` (its first
 * entry) or else `Host`: Remix v2 refused it by throwing, a 500 (decision 0079); this comparison,
 * made first, answers it with a 400, and stays with React Router (decision 0132), which compares the
 * Origin with the public origin instead. The site's own check of the origin (isCrossSiteWrite) has
 * run by then.
 */
export function hostDiffersFromOrigin(options: {
  method: string;
  origin: string | undefined;
  host: string | undefined;
  forwardedHost: string | undefined;
}): boolean {
  if (SAFE_METHODS.has(options.method.toUpperCase()) || !options.origin) return false;
  let originHost = options.origin;
  if (originHost !== "null") {
    try {
      originHost = new URL(options.origin).host;
    } catch {
      return true;
    }
  }
  const host = options.forwardedHost?.split(",")[0]?.trim() || options.host;
  return host !== originHost;
}

/** A path with a broken `%` escape (`/%`, `/%ff`): no page has such an address. */
export function hasBrokenEscape(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}
