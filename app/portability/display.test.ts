import { describe, expect, it } from "vitest";
import { formatDateTime } from "~/lib/dates";
import { carrierLabel } from "./display";

describe("request display", () => {
  it("dates a request in Mexico City time", () => {
    expect(formatDateTime("2026-01-01T03:30:00.000Z")).toMatch(/31 de diciembre de 2025/);
  });

  it("names the carrier by its brand, and 'other' in Spanish", () => {
    expect(carrierLabel("att", "Otra compañía")).toBe("AT&T");
    expect(carrierLabel("otro", "Otra compañía")).toBe("Otra compañía");
  });
});
