import { describe, expect, it } from "vitest";
import { parseLegalSource } from "./build-legal-pdfs.mjs";

describe("legal document sources", () => {
  it("read title, date, headings, paragraphs and list items", () => {
    const document = parseLegalSource(
      "# Aviso de privacidad\nFecha: 1 de noviembre de 2026\n\n## Responsable\nConecta Móvil\nes responsable.\n\n- Nombre\n- Correo\n",
    );
    expect(document.title).toBe("Aviso de privacidad");
    expect(document.date).toBe("1 de noviembre de 2026");
    expect(document.blocks).toEqual([
      { type: "heading", text: "Responsable" },
      { type: "paragraph", text: "Conecta Móvil es responsable." },
      { type: "item", text: "Nombre" },
      { type: "item", text: "Correo" },
    ]);
  });
});
