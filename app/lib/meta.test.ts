import { describe, expect, it } from "vitest";
import { pageTitle, shareMeta, titleMeta } from "./meta";

const root = {
  id: "root",
  loaderData: {
    appTitle: "Conecta Móvil",
    description: "Planes de prepago",
    origin: "https://www.conectamovil.mx",
    shareImageAlt: "Logotipo de Conecta Móvil",
  },
};

describe("page meta", () => {
  it("titles a page after the app", () => {
    expect(pageTitle("Conecta Móvil", "Planes")).toBe("Conecta Móvil | Planes");
    expect(pageTitle("Conecta Móvil")).toBe("Conecta Móvil");
    expect(titleMeta({ loaderData: { title: "Planes" }, matches: [root] })).toEqual([
      { title: "Conecta Móvil | Planes" },
      { name: "description", content: "Planes de prepago" },
    ]);
  });

  it("gives a public page its canonical address without the query, and its sharing card", () => {
    const tags = shareMeta({
      loaderData: { title: "Planes", description: "Compara los planes" },
      matches: [root],
      location: { pathname: "/plans" },
    });
    const find = (key: string) =>
      tags.find(
        (tag) =>
          (tag as Record<string, string>).property === key ||
          (tag as Record<string, string>).name === key,
      ) as Record<string, string> | undefined;
    expect(tags).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://www.conectamovil.mx/plans",
    });
    expect(find("og:url")?.content).toBe("https://www.conectamovil.mx/plans");
    expect(find("og:title")?.content).toBe("Conecta Móvil | Planes");
    expect(find("og:description")?.content).toBe("Compara los planes");
    expect(find("og:locale")?.content).toBe("es_MX");
    expect(find("og:type")?.content).toBe("website");
    expect(find("og:image")?.content).toBe("https://www.conectamovil.mx/brand/og-image.png");
    expect(find("og:image:width")?.content).toBe("1200");
    expect(find("og:image:height")?.content).toBe("630");
    expect(find("og:image:alt")?.content).toBe("Logotipo de Conecta Móvil");
    expect(find("twitter:card")?.content).toBe("summary_large_image");
    expect(find("twitter:image")?.content).toBe(find("og:image")?.content);
  });

  it("falls back to the site's description, and adds nothing without an origin", () => {
    const tags = shareMeta({ loaderData: {}, matches: [root], location: { pathname: "/" } });
    expect(tags).toContainEqual({ property: "og:description", content: "Planes de prepago" });
    expect(tags).toContainEqual({ property: "og:title", content: "Conecta Móvil" });
    expect(
      shareMeta({
        loaderData: {},
        matches: [{ id: "root", loaderData: {} }],
        location: { pathname: "/" },
      }),
    ).toEqual([{ title: "" }]);
  });
});
