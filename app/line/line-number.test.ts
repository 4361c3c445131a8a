import { describe, expect, it } from "vitest";
import { formatLineNumber } from "./line-number";

describe("a line's number as written", () => {
  it("groups a two-digit area code 2-4-4 and the others 3-3-4", () => {
    expect(formatLineNumber("5599000001")).toBe("55 9900 0001");
    expect(formatLineNumber("8112345678")).toBe("81 1234 5678");
    expect(formatLineNumber("2221234567")).toBe("222 123 4567");
  });

  it("leaves anything else as it is", () => {
    expect(formatLineNumber("55123")).toBe("55123");
  });
});
