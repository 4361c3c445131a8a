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

describe("the legal documents' header", () => {
  it("draws the brand's mark as vector paths, in the brand's green", async () => {
    const { default: PDFDocument } = await import("pdfkit");
    const { drawLogo } = await import("./build-legal-pdfs.mjs");
    const pdf = new PDFDocument({ compress: false });
    const chunks = [];
    pdf.on("data", (chunk) => chunks.push(chunk));
    const done = new Promise((resolve) => pdf.on("end", resolve));
    drawLogo(pdf, 64, 64);
    pdf.end();
    await done;
    const source = Buffer.concat(chunks).toString("latin1");
    // Curves (the tile's corners, the dot and the arcs), filled in #15803d.
    expect(source.match(/ c\n/g)?.length ?? 0).toBeGreaterThan(8);
    expect(source).toContain("0.08235294117647059 0.5019607843137255 0.23921568627450981 scn");
    expect(pdf.y).toBeGreaterThan(64 + 28);
  });
});
