import { describe, expect, it } from "vitest";
import { fold, foldWithMap, isWordStart } from "./fold";

describe("folding text for search", () => {
  it("ignores case and accents, including ñ and ü", () => {
    expect(fold("Teléfono MÓVIL")).toBe("telefono movil");
    expect(fold("Año, pingüino, ÉXITO")).toBe("ano, pinguino, exito");
    expect(fold("Portabilidad")).toBe(fold("portabilidad"));
  });

  it("treats a decomposed accent like a precomposed one", () => {
    const decomposed = "te\u0301lefono";
    expect(fold(decomposed)).toBe("telefono");
  });

  it("maps each folded character back to the original text", () => {
    const text = foldWithMap("¿Teléfono?");
    expect(text.folded).toBe("¿telefono?");
    const start = text.folded.indexOf("telefono");
    const end = start + "telefono".length - 1;
    expect(text.original.slice(text.starts[start], text.ends[end])).toBe("Teléfono");
  });

  it("keeps the mapping right when a character folds to two, or comes decomposed", () => {
    const decomposed = foldWithMap("Ve\u0301ase İstanbul");
    const position = decomposed.folded.indexOf("vease");
    expect(
      decomposed.original.slice(decomposed.starts[position], decomposed.ends[position + 4]),
    ).toBe("Ve\u0301ase");
    const istanbul = decomposed.folded.indexOf("istanbul");
    expect(
      decomposed.original.slice(decomposed.starts[istanbul], decomposed.ends[istanbul + 7]),
    ).toBe("İstanbul");
  });

  it("never splits an emoji", () => {
    const text = foldWithMap("📶 señal");
    const position = text.folded.indexOf("senal");
    expect(text.original.slice(text.starts[position], text.ends[position + 4])).toBe("señal");
  });

  it("knows where words begin", () => {
    expect(isWordStart("hola mundo", 0)).toBe(true);
    expect(isWordStart("hola mundo", 5)).toBe(true);
    expect(isWordStart("hola mundo", 6)).toBe(false);
    expect(isWordStart("internet.conectamovil.mx", 9)).toBe(true);
  });
});
