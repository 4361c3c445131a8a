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
});
