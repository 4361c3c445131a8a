import { describe, expect, it } from "vitest";
import { isPrefetchRequest } from "./request-context.server";

describe("a link's prefetch", () => {
  it("is told by the header browsers send with it, today's or the former one", () => {
    expect(isPrefetchRequest("prefetch")).toBe(true);
    expect(isPrefetchRequest("Prefetch")).toBe(true);
    expect(isPrefetchRequest("prefetch;anonymous-client-ip")).toBe(true);
  });

  it("is not a prerender, whose page is shown, nor a request without the header", () => {
    expect(isPrefetchRequest("prefetch;prerender")).toBe(false);
    expect(isPrefetchRequest(null)).toBe(false);
    expect(isPrefetchRequest(undefined)).toBe(false);
    expect(isPrefetchRequest("")).toBe(false);
  });
});
