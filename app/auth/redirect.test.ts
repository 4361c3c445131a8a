import { describe, expect, it } from "vitest";
import { safeRedirectPath, signInPathFor } from "./redirect";

describe("safeRedirectPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirectPath("/my-account/recarga")).toBe("/my-account/recarga");
    expect(safeRedirectPath("/plans?tipo=esim#top")).toBe("/plans?tipo=esim#top");
  });
  it.each([
    ["https://evil.example/"],
    ["//evil.example/path"],
    ["/\\evil.example"],
    ["javascript:alert(1)"],
    ["my-account"],
    ["/auth/sign-in"],
    ["/auth"],
    ["/ok\r\nSet-Cookie: x=1"],
    [""],
  ])("refuses %j and falls back to the account", (value) => {
    expect(safeRedirectPath(value)).toBe("/my-account");
  });
  it("falls back when absent or not text", () => {
    expect(safeRedirectPath(null)).toBe("/my-account");
    expect(safeRedirectPath(undefined, "/")).toBe("/");
  });
  it("builds the sign-in address that returns to a page", () => {
    expect(signInPathFor("/my-account/recarga?monto=100")).toBe(
      "/auth/sign-in?redirectTo=%2Fmy-account%2Frecarga%3Fmonto%3D100",
    );
  });
});
