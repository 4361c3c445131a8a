import { describe, expect, it } from "vitest";
import { isCrossSiteWrite, securityHeaders } from "./security-headers";

describe("securityHeaders", () => {
  it("allows only scripts carrying this response's nonce", () => {
    const headers = securityHeaders({ nonce: "abc123", isProduction: false, isDevelopment: false });
    const csp = headers["Content-Security-Policy"];
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
  });

  it("adds HSTS in production", () => {
    const headers = securityHeaders({ nonce: "n", isProduction: true, isDevelopment: false });
    expect(headers["Strict-Transport-Security"]).toMatch(/max-age=31536000/);
  });
});

describe("isCrossSiteWrite", () => {
  const base = { host: "tienda.example.mx", allowedOrigins: [] as string[] };
  it("refuses a POST whose Origin is another site", () => {
    expect(isCrossSiteWrite({ ...base, method: "POST", origin: "https://evil.example" })).toBe(
      true,
    );
    expect(isCrossSiteWrite({ ...base, method: "POST", origin: "null" })).toBe(true);
  });
  it("lets same-site posts, reads and server-to-server calls through", () => {
    expect(isCrossSiteWrite({ ...base, method: "POST", origin: "https://tienda.example.mx" })).toBe(
      false,
    );
    expect(isCrossSiteWrite({ ...base, method: "GET", origin: "https://evil.example" })).toBe(
      false,
    );
    expect(isCrossSiteWrite({ ...base, method: "POST", origin: undefined })).toBe(false);
    expect(
      isCrossSiteWrite({
        ...base,
        method: "POST",
        origin: "https://www.conectamovil.mx",
        allowedOrigins: ["https://www.conectamovil.mx"],
      }),
    ).toBe(false);
  });
});
