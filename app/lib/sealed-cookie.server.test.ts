import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { MAX_SET_COOKIE_BYTES, createSealedCookie } from "./sealed-cookie.server";

const schema = z.object({ text: z.string() });
const secretA = "secret-a-".padEnd(40, "a");
const secretB = "secret-b-".padEnd(40, "b");

function cookieHeaderFrom(setCookies: string[]): string {
  return setCookies
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

describe("createSealedCookie", () => {
  const cookie = createSealedCookie({ name: "test", secrets: [secretA], secure: false, schema });

  it("round-trips a value and hides it from the browser", () => {
    const setCookies = cookie.write({ text: "hola secreto" }, null);
    expect(setCookies.join()).not.toContain("hola");
    expect(cookie.read(cookieHeaderFrom(setCookies))).toEqual({ text: "hola secreto" });
  });

  it("sets HttpOnly, SameSite=Lax and Path=/; Secure and __Host- in production", () => {
    const [line] = cookie.write({ text: "x" }, null);
    expect(line).toMatch(/; Path=\/; HttpOnly; SameSite=Lax/);
    const secure = createSealedCookie({ name: "test", secrets: [secretA], secure: true, schema });
    const [secureLine] = secure.write({ text: "x" }, null);
    expect(secureLine.startsWith("__Host-test=")).toBe(true);
    expect(secureLine).toContain("; Secure");
  });

  it("reads tampered, truncated or foreign values as no value", () => {
    const header = cookieHeaderFrom(cookie.write({ text: "x" }, null));
    const value = header.slice("test=".length);
    const flipped = value.slice(0, -3) + (value.at(-3) === "A" ? "B" : "A") + value.slice(-2);
    expect(cookie.read(`test=${flipped}`)).toBeNull();
    expect(cookie.read(`test=${value.slice(0, 20)}`)).toBeNull();
    expect(cookie.read("test=garbage")).toBeNull();
    expect(cookie.read("")).toBeNull();
    const other = createSealedCookie({ name: "other", secrets: [secretA], secure: false, schema });
    expect(other.read(`other=${value}`)).toBeNull();
  });

  it("opens cookies sealed with an older secret after rotation, and not after retirement", () => {
    const old = createSealedCookie({ name: "test", secrets: [secretA], secure: false, schema });
    const header = cookieHeaderFrom(old.write({ text: "antes" }, null));
    const rotated = createSealedCookie({
      name: "test",
      secrets: [secretB, secretA],
      secure: false,
      schema,
    });
    expect(rotated.read(header)).toEqual({ text: "antes" });
    const retired = createSealedCookie({ name: "test", secrets: [secretB], secure: false, schema });
    expect(retired.read(header)).toBeNull();
  });

  it("expires on the server too, not only in the browser", () => {
    vi.useFakeTimers();
    try {
      const shortLived = createSealedCookie({
        name: "short",
        secrets: [secretA],
        secure: false,
        maxAgeSeconds: 180,
        schema,
      });
      const header = cookieHeaderFrom(shortLived.write({ text: "x" }, null));
      vi.advanceTimersByTime(179_000);
      expect(shortLived.read(header)).toEqual({ text: "x" });
      vi.advanceTimersByTime(2_000);
      expect(shortLived.read(header)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("splits large values into chunks under 4096 bytes and cleans stale chunks", () => {
    const big = createSealedCookie({
      name: "big",
      secrets: [secretA],
      secure: true,
      schema,
    });
    const large = { text: "t".repeat(6_000) };
    const setCookies = big.write(large, null);
    expect(setCookies.length).toBeGreaterThan(1);
    for (const line of setCookies)
      expect(Buffer.byteLength(line)).toBeLessThan(MAX_SET_COOKIE_BYTES);
    const header = cookieHeaderFrom(setCookies);
    expect(big.read(header)).toEqual(large);

    const smaller = big.write({ text: "corto" }, header);
    const names = smaller.map((line) => line.split("=")[0]);
    expect(smaller[0].startsWith("__Host-big=")).toBe(true);
    expect(names).toContain("__Host-big.0");
    expect(smaller.filter((line) => line.includes("Max-Age=0"))).toHaveLength(setCookies.length);
    expect(big.read(cookieHeaderFrom(smaller))).toEqual({ text: "corto" });
  });

  it("reads a value with a missing chunk as no value", () => {
    const big = createSealedCookie({ name: "big", secrets: [secretA], secure: false, schema });
    const header = cookieHeaderFrom(big.write({ text: "t".repeat(9_000) }, null));
    const withoutFirst = header
      .split("; ")
      .filter((pair) => !pair.startsWith("big.1="))
      .join("; ");
    expect(big.read(withoutFirst)).toBeNull();
  });

  it("clears the cookie and every chunk", () => {
    const header = "test=abc; test.0=x; test.1=y; unrelated=1";
    const cleared = cookie.clear(header).map((line) => line.split("=")[0]);
    expect(cleared.sort()).toEqual(["test", "test.0", "test.1"]);
  });
});
