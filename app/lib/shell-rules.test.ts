import { describe, expect, it } from "vitest";
import { whatsAppLink } from "./external-links";
import { pageTitle, titleMeta } from "./meta";
import { scrollStage } from "./scroll-stage";

describe("page titles", () => {
  it("joins the app title and the page title with a vertical bar", () => {
    expect(pageTitle("Conecta Móvil", "Planes")).toBe("Conecta Móvil | Planes");
  });

  it("shows the app title alone where a page has none", () => {
    expect(pageTitle("Conecta Móvil")).toBe("Conecta Móvil");
    expect(
      titleMeta({
        loaderData: undefined,
        matches: [{ id: "root", loaderData: { appTitle: "Conecta Móvil" } }],
      }),
    ).toEqual([{ title: "Conecta Móvil" }]);
  });

  it("takes the page title from the page's loader data", () => {
    const meta = titleMeta({
      loaderData: { title: "Carrito" },
      matches: [{ id: "root", loaderData: { appTitle: "Conecta Móvil", description: "Planes" } }],
    });
    expect(meta).toEqual([
      { title: "Conecta Móvil | Carrito" },
      { name: "description", content: "Planes" },
    ]);
  });
});

describe("home page bar", () => {
  it("changes style past 0 px and colour past 100 px", () => {
    expect(scrollStage(0)).toBe("top");
    expect(scrollStage(1)).toBe("scrolled");
    expect(scrollStage(100)).toBe("scrolled");
    expect(scrollStage(101)).toBe("deep");
  });
});

describe("WhatsApp links", () => {
  it("prefill a Spanish message, encoded", () => {
    expect(whatsAppLink("52 55 1234 5678", "¿Hola?")).toBe(
      "https://wa.me/525512345678?text=%C2%BFHola%3F",
    );
    expect(whatsAppLink("525512345678")).toBe("https://wa.me/525512345678");
  });
});
