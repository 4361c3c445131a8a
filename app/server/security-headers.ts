/** Headers every response carries. The nonce lets Remix's own inline scripts run, and only them. */
export function securityHeaders(options: {
  nonce: string;
  isProduction: boolean;
  isDevelopment: boolean;
}): Record<string, string> {
  const connectSources = ["'self'", ...(options.isDevelopment ? ["ws://localhost:*"] : [])];
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}'`,
    // React writes style attributes (toasts, transitions); scripts stay nonce-only.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSources.join(" ")}`,
    "form-action 'self'",
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
 * A state-changing request from another site's page is refused. Requests without Origin
 * (server-to-server notifications, old clients) pass: browsers always send it on cross-site POSTs.
 */
export function isCrossSiteWrite(options: {
  method: string;
  origin: string | undefined;
  host: string | undefined;
  allowedOrigins: string[];
}): boolean {
  if (SAFE_METHODS.has(options.method.toUpperCase())) return false;
  if (!options.origin) return false;
  if (options.origin === "null") return true;
  if (options.allowedOrigins.includes(options.origin)) return false;
  try {
    return new URL(options.origin).host !== options.host;
  } catch {
    return true;
  }
}
