import { describe, expect, it } from "vitest";
import { loggedPath } from "./middlewares";

describe("the request log's path", () => {
  it("masks a line's number, as the pages do, and leaves every other path alone", () => {
    expect(loggedPath("/my-account/lineas/5512345678")).toBe("/my-account/lineas/55••••5678");
    expect(loggedPath("/my-account/lineas/5512345678.data")).toBe(
      "/my-account/lineas/55••••5678.data",
    );
    expect(loggedPath("/recarga/AbC123xyz")).toBe("/recarga/AbC123xyz");
    expect(loggedPath("/pedido/PED-2026-000123")).toBe("/pedido/PED-2026-000123");
    // Not ten digits: not a line.
    expect(loggedPath("/x/123456789012")).toBe("/x/123456789012");
  });
});
