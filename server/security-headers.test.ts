import { describe, expect, it } from "vitest";
import {
  hasBrokenEscape,
  hostDiffersFromOrigin,
  isCrossSiteWrite,
  isServedHost,
  publicHostAnswer,
  securityHeaders,
} from "./security-headers";

describe("securityHeaders", () => {
  it("allows only scripts carrying this response's nonce", () => {
    const headers = securityHeaders({ nonce: "abc123", isProduction: false, isDevelopment: false });
    const csp = headers["Content-Security-Policy"];
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // Styles too (decision 0138): no inline style attribute, a <style> only with the nonce.
    expect(csp).toContain("style-src 'self' 'nonce-abc123'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
  });

  it("lets forms lead to this site only, and to the payment provider's page when it has one", () => {
    const own = securityHeaders({ nonce: "n", isProduction: true, isDevelopment: false });
    expect(own["Content-Security-Policy"]).toContain("form-action 'self';");
    const stripe = securityHeaders({
      nonce: "n",
      isProduction: true,
      isDevelopment: false,
      formTargets: ["https://checkout.stripe.com"],
    });
    expect(stripe["Content-Security-Policy"]).toContain(
      "form-action 'self' https://checkout.stripe.com;",
    );
  });

  it("adds HSTS in production", () => {
    const headers = securityHeaders({ nonce: "n", isProduction: true, isDevelopment: false });
    expect(headers["Strict-Transport-Security"]).toMatch(/max-age=31536000/);
  });
});

describe("isCrossSiteWrite", () => {
  const site = "https://tienda.example.mx";
  const post = (headers: { origin?: string; secFetchSite?: string; allowedOrigins?: string[] }) =>
    isCrossSiteWrite({
      method: "POST",
      origin: headers.origin,
      secFetchSite: headers.secFetchSite,
      allowedOrigins: headers.allowedOrigins ?? [site],
    });

  it("refuses a POST whose Origin is another site, or a null Origin", () => {
    expect(post({ origin: "https://evil.example" })).toBe(true);
    expect(post({ origin: "null" })).toBe(true);
    expect(post({ origin: "not a url" })).toBe(true);
  });

  it("compares the scheme and the port too, not only the host", () => {
    expect(post({ origin: "http://tienda.example.mx" })).toBe(true);
    expect(post({ origin: "https://tienda.example.mx:8443" })).toBe(true);
    expect(post({ origin: site })).toBe(false);
  });

  it("believes a browser that says the request is cross-site, whatever the Origin says", () => {
    expect(post({ secFetchSite: "cross-site" })).toBe(true);
    expect(post({ secFetchSite: "cross-site", origin: site })).toBe(true);
    expect(post({ secFetchSite: "same-origin", origin: site })).toBe(false);
  });

  it("lets a POST without Origin through only when Sec-Fetch-Site is absent or same-origin", () => {
    // Old browsers, and the payment provider's server-to-server notifications.
    expect(post({})).toBe(false);
    expect(post({ secFetchSite: "same-origin" })).toBe(false);
    expect(post({ secFetchSite: "same-site" })).toBe(true);
    expect(post({ secFetchSite: "none" })).toBe(true);
  });

  it("accepts the configured public origins, and never refuses a read", () => {
    expect(
      post({
        origin: "https://www.conectamovil.mx",
        allowedOrigins: ["https://www.conectamovil.mx"],
      }),
    ).toBe(false);
    expect(
      isCrossSiteWrite({
        method: "GET",
        origin: "https://evil.example",
        secFetchSite: "cross-site",
        allowedOrigins: [site],
      }),
    ).toBe(false);
  });
});

describe("isServedHost", () => {
  const origins = ["http://localhost:3000", "http://127.0.0.1:3000"];
  it("serves the site's own names and ports only", () => {
    expect(isServedHost("localhost:3000", origins)).toBe(true);
    expect(isServedHost("127.0.0.1:3000", origins)).toBe(true);
    expect(isServedHost("LOCALHOST:3000", origins)).toBe(true);
    expect(isServedHost("rebind.attacker.example:3000", origins)).toBe(false);
    expect(isServedHost("localhost:3001", origins)).toBe(false);
    expect(isServedHost(undefined, origins)).toBe(false);
  });
});

describe("publicHostAnswer", () => {
  const site = { publicOrigin: "https://www.conectamovil.mx", trustsProxy: false };
  const get = (host: string | undefined, url = "/", more: object = {}) =>
    publicHostAnswer({ ...site, method: "GET", host, forwardedHost: undefined, url, ...more });

  it("serves the public name, whatever its case", () => {
    expect(get("www.conectamovil.mx")).toBeNull();
    expect(get("WWW.ConectaMovil.MX")).toBeNull();
  });

  it("sends a page on another name to the same path and query on the public name", () => {
    expect(get("conectamovil.mx", "/confirmation?pedido=PED-2026-000001")).toEqual({
      status: 301,
      location: "https://www.conectamovil.mx/confirmation?pedido=PED-2026-000001",
    });
    expect(get(undefined)).toEqual({ status: 301, location: "https://www.conectamovil.mx/" });
    expect(get("10.0.0.7:3000", "/plans", { method: "HEAD" })).toMatchObject({ status: 301 });
  });

  it("keeps the redirect on the public name whatever the path says", () => {
    expect(get("conectamovil.mx", "//otro.example/x")).toEqual({
      status: 301,
      location: "https://www.conectamovil.mx//otro.example/x",
    });
  });

  it("refuses a form sent to another name rather than lose its body on a redirect", () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      expect(get("conectamovil.mx", "/checkout", { method })).toEqual({ status: 421 });
    }
  });

  it("reads the name a trusted proxy forwards, and only then", () => {
    const behindProxy = { trustsProxy: true, host: "10.0.0.7:3000" };
    expect(
      get("10.0.0.7:3000", "/", { ...behindProxy, forwardedHost: "www.conectamovil.mx" }),
    ).toBeNull();
    expect(
      get("10.0.0.7:3000", "/", {
        ...behindProxy,
        forwardedHost: "conectamovil.mx, www.conectamovil.mx",
      }),
    ).toMatchObject({ status: 301 });
    expect(get("conectamovil.mx", "/", { forwardedHost: "www.conectamovil.mx" })).toMatchObject({
      status: 301,
    });
  });
});

describe("hostDiffersFromOrigin", () => {
  const write = {
    method: "POST",
    origin: "https://tienda.example.mx",
    host: "tienda.example.mx",
    forwardedHost: undefined,
  };

  it("lets a write through when its Origin names the host it was sent to", () => {
    expect(hostDiffersFromOrigin(write)).toBe(false);
    expect(hostDiffersFromOrigin({ ...write, origin: undefined })).toBe(false);
    expect(
      hostDiffersFromOrigin({
        ...write,
        host: "10.0.0.5:3000",
        forwardedHost: "tienda.example.mx",
      }),
    ).toBe(false);
    // Reads are never compared, as Remix v2 did not.
    expect(hostDiffersFromOrigin({ ...write, method: "GET", host: "otro.example" })).toBe(false);
  });

  it.each([
    { host: "127.0.0.1:3000", origin: "http://localhost:3000" },
    { forwardedHost: "otro.example" },
    { forwardedHost: "otro.example, tienda.example.mx" },
    { host: "TIENDA.example.mx" },
    { host: undefined },
    { origin: "null" },
    { origin: "no es un origen" },
    { method: "delete", host: "otro.example" },
  ])("finds what Remix v2 would have thrown on: %j", (change) => {
    expect(hostDiffersFromOrigin({ ...write, ...change })).toBe(true);
  });
});

describe("hasBrokenEscape", () => {
  it.each(["/%", "/auth/oauth/%ff", "/plans/%E0%A4%A", "/%zz.js", "/a%2"])(
    "%s is broken",
    (path) => {
      expect(hasBrokenEscape(path)).toBe(true);
    },
  );

  it.each(["/", "/plans", "/help-center/%C3%B1", "/a%20b", "/100%25"])("%s is fine", (path) => {
    expect(hasBrokenEscape(path)).toBe(false);
  });
});
