import { describe, expect, it } from "vitest";
import {
  checkIdentificationNumber,
  normalizeIdentificationNumber,
  sniffImageType,
} from "./identification-evidence";

describe("the identification's own number", () => {
  it("is the INE's CIC: 9 digits, as typed with spaces or hyphens", () => {
    expect(normalizeIdentificationNumber(" 1234 567-89 ")).toBe("123456789");
    expect(checkIdentificationNumber("ine", "123456789")).toEqual({ ok: true });
    for (const wrong of ["12345678", "1234567890", "12345678A", "IDMEX1234"]) {
      expect(checkIdentificationNumber("ine", wrong), wrong).toEqual({
        ok: false,
        fault: "cic-format",
      });
    }
  });

  it("is a Mexican passport's letter and 8 digits", () => {
    expect(
      checkIdentificationNumber("pasaporte", normalizeIdentificationNumber("g1234 5678")),
    ).toEqual({ ok: true });
    for (const wrong of ["123456789", "GG1234567", "G1234567", "G123456789"]) {
      expect(checkIdentificationNumber("pasaporte", wrong), wrong).toEqual({
        ok: false,
        fault: "passport-format",
      });
    }
  });

  it("is required, and a CURP biométrica goes to a store", () => {
    expect(checkIdentificationNumber("ine", "")).toEqual({ ok: false, fault: "required" });
    expect(checkIdentificationNumber("curp_biometrica", "123456789")).toEqual({
      ok: false,
      fault: "in-store",
    });
  });
});

describe("a photo's type, by its first bytes", () => {
  const bytes = (...parts: Array<number[] | string>) =>
    new Uint8Array(
      parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part)),
    );

  it("knows JPEG, PNG, WebP and HEIC/HEIF", () => {
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe1]))).toBe("image/jpeg");
    expect(sniffImageType(bytes("\x89PNG\r\n\x1a\n", "rest"))).toBe("image/png");
    expect(sniffImageType(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(bytes([0, 0, 0, 24], "ftypheic", [0, 0]))).toBe("image/heic");
    expect(sniffImageType(bytes([0, 0, 0, 24], "ftypmif1", [0, 0]))).toBe("image/heif");
  });

  it("refuses anything else, whatever its name or declared type", () => {
    for (const other of [
      bytes("%PDF-1.7"),
      bytes("<svg xmlns="),
      bytes("GIF89a"),
      bytes([0, 0, 0, 24], "ftypisom"),
      bytes([0xff, 0xd8]),
      bytes(),
    ]) {
      expect(sniffImageType(other)).toBeNull();
    }
  });
});
