import { describe, expect, it } from "vitest";
import { sameSitePath } from "./same-site-path";

describe("redirect targets from user input", () => {
  it("keep a path on this site with its query", () => {
    expect(sameSitePath("/plans?validity_days=30", "/cart")).toBe("/plans?validity_days=30");
    expect(sameSitePath("/", "/cart")).toBe("/");
  });

  it("fall back for anything that could leave the site", () => {
    for (const value of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "evil.example",
      "javascript:alert(1)",
      "/plans\r\nSet-Cookie: x=1",
      "",
      null,
    ]) {
      expect(sameSitePath(value, "/cart"), String(value)).toBe("/cart");
    }
  });

  it("fall back for every spelling of //host once dot segments are resolved", () => {
    for (const value of [
      "/..//evil.example",
      "/.//evil.example",
      "/./..//evil.example",
      "/a/..//evil.example",
      "/a/b/../..//evil.example/x?y=1",
      "/%2e%2e//evil.example",
      "/%2E%2E//evil.example",
      "/.%2e//evil.example",
      "/%2e//evil.example",
      "/..///evil.example",
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
      "/..%2F%2Fevil.example",
    ]) {
      const result = sameSitePath(value, "/cart");
      expect(result.startsWith("//"), `${value} → ${result}`).toBe(false);
      expect(new URL(result, "https://tienda.example").origin, value).toBe(
        "https://tienda.example",
      );
    }
  });

  it("resolve harmless dot segments to the path they name", () => {
    expect(sameSitePath("/my-account/../plans", "/cart")).toBe("/plans");
    expect(sameSitePath("/./plans?x=1", "/cart")).toBe("/plans?x=1");
  });
});
