import { describe, expect, it } from "vitest";
import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import type { HelpArticle } from "./content";
import { queryTerms, stem } from "./query";
import { buildHelpIndex, searchHelp } from "./search";

const categories = [
  { slug: "general", name: "General", description: "" },
  { slug: "recargas", name: "Recargas", description: "" },
];

function article(slug: string, question: string, body: string, extra: Partial<HelpArticle> = {}) {
  return {
    slug,
    category: "general",
    question,
    keywords: [],
    answer: [{ kind: "paragraph" as const, text: body }],
    ...extra,
  };
}

const small = buildHelpIndex(categories, [
  article(
    "cuerpo",
    "¿Cómo consulto mi consumo?",
    "Marca `*100#`. Tu portabilidad no cambia el saldo.",
  ),
  article("titulo", "¿Qué es la portabilidad?", "Es cambiar de compañía conservando tu número."),
  article("credito", "¿Aceptan crédito?", "Sí, tarjetas de crédito y débito."),
  article("red", "¿Dónde hay red?", "La Red Compartida cubre casi todo México."),
  article("telefono", "¿Mi teléfono sirve?", "Si está liberado, sí."),
  article("etiqueta", "¿Cómo cambio de chip?", "Pide una SIM nueva.", { keywords: ["reposición"] }),
  article("categoria", "¿Cuándo vence?", "Al terminar tu vigencia.", { category: "recargas" }),
]);

const slugs = (query: string) => searchHelp(small, query).hits.map((hit) => hit.entry.article.slug);

describe("search terms", () => {
  it("folds case and accents and drops punctuation and common words", () => {
    expect(queryTerms("¿Cómo configuro el APN?")).toEqual(["configuro", "apn"]);
    expect(queryTerms("  PORTABILIDAD  ")).toEqual(["portabilidad"]);
  });

  it("keeps dial codes and addresses whole", () => {
    expect(queryTerms("*100#")).toEqual(["*100#"]);
    expect(queryTerms("internet.conectamovil.mx.")).toEqual(["internet.conectamovil.mx"]);
  });

  it("searches for common words when the query has nothing else", () => {
    expect(queryTerms("de la")).toEqual(["de", "la"]);
    expect(queryTerms("a ?")).toEqual([]);
  });

  it("reduces plurals and infinitives to a stem their other forms start with", () => {
    expect(stem("recargas")).toBe("recarga");
    expect(stem("activaciones")).toBe("activacion");
    expect(stem("configurar")).toBe("configur");
    expect(stem("sim")).toBe("sim");
    expect(queryTerms("recargas recargas")).toEqual(["recarga"]);
  });

  it("caps the number of terms and the query length", () => {
    expect(
      queryTerms("uno dos tres cuatro cinco seis siete ocho nueve diez".replace("uno", "alfa")),
    ).toHaveLength(8);
    expect(queryTerms(`${"x".repeat(99)} zzz`)).toEqual(["x".repeat(99)]);
  });
});

describe("matching", () => {
  it("is case- and accent-insensitive in both directions", () => {
    expect(slugs("portabilidad")).toContain("titulo");
    expect(slugs("PORTABILIDAD")).toContain("titulo");
    expect(slugs("telefono")).toEqual(["telefono"]);
    expect(slugs("TELÉFONO")).toEqual(["telefono"]);
  });

  it("finds other forms of a word: 'recarga' finds 'recargas', 'recargas' finds 'recarga'", () => {
    const index = buildHelpIndex(categories, [
      article("plural", "¿Cómo pago mis recargas?", "Con tarjeta."),
      article("singular", "¿Qué es una recarga?", "Un plan nuevo."),
    ]);
    const found = (query: string) =>
      searchHelp(index, query)
        .hits.map((hit) => hit.entry.article.slug)
        .sort();
    expect(found("recarga")).toEqual(["plural", "singular"]);
    expect(found("recargas")).toEqual(["plural", "singular"]);
    expect(found("recargar")).toEqual(["plural", "singular"]);
  });

  it("matches from the start of a word, so 'red' does not find 'crédito'", () => {
    expect(slugs("red")).toEqual(["red"]);
  });

  it("finds words in keywords, but not in the category name, which the result would not show", () => {
    expect(slugs("reposicion")).toEqual(["etiqueta"]);
    expect(slugs("recargas")).toEqual([]);
  });

  it("requires every term when some article has them all", () => {
    expect(slugs("portabilidad saldo")).toEqual(["cuerpo"]);
    expect(searchHelp(small, "portabilidad saldo").partial).toBe(false);
  });

  it("falls back to articles holding at least half of the terms, and says so", () => {
    const outcome = searchHelp(small, "portabilidad zzzz");
    expect(outcome.partial).toBe(true);
    expect(outcome.hits.map((hit) => hit.entry.article.slug)).toEqual(["titulo", "cuerpo"]);
  });

  it("finds nothing for words the content does not hold", () => {
    expect(searchHelp(small, "zzqx")).toMatchObject({ hits: [], partial: false });
    expect(searchHelp(small, "")).toMatchObject({ hits: [], terms: [] });
  });
});

describe("ranking", () => {
  it("puts questions whose title matches above those whose answer matches", () => {
    expect(slugs("portabilidad")).toEqual(["titulo", "cuerpo"]);
  });

  it("puts the question holding more of the terms in its title first", () => {
    const index = buildHelpIndex(categories, [
      article(
        "uno",
        "¿Cómo configuro el APN?",
        "En iPhone y Android, el APN se escribe igual. APN, APN, APN.",
      ),
      article("dos", "¿Cómo configuro el APN en iPhone?", "Abre Configuración."),
    ]);
    expect(searchHelp(index, "apn iphone").hits.map((hit) => hit.entry.article.slug)).toEqual([
      "dos",
      "uno",
    ]);
  });
});

describe("searching the real content", () => {
  const index = buildHelpIndex(HELP_CATEGORIES, HELP_ARTICLES);
  const top = (query: string) => searchHelp(index, query).hits[0]?.entry.article.slug;
  const all = (query: string) => searchHelp(index, query).hits.map((hit) => hit.entry.article.slug);

  it("answers the questions customers type with the right article first", () => {
    expect(top("configurar apn iphone")).toBe("configurar-apn-iphone");
    expect(top("apn android")).toBe("configurar-apn-android");
    expect(top("nip")).toBe("nip-de-portabilidad");
    expect(top("hotspot")).toBe("compartir-datos-hotspot");
    expect(top("me robaron el celular")).toBe("perdi-mi-telefono-o-me-lo-robaron");
    expect(top("roaming estados unidos")).toBe("roaming-estados-unidos-y-canada");
    expect(top("instalar esim iphone")).toBe("instalar-esim-iphone");
    expect(all("vincular curp").slice(0, 2).sort()).toEqual([
      "como-vincular-mi-curp",
      "vincular-linea-con-curp",
    ]);
  });

  it("finds every portability question for 'portabilidad', titles first", () => {
    const results = all("portabilidad");
    const portability = HELP_ARTICLES.filter((item) => item.category === "portabilidad").map(
      (item) => item.slug,
    );
    expect(results.slice(0, portability.length).sort()).toEqual([...portability].sort());
  });

  it("finds the same answers with or without accents", () => {
    expect(all("telefono")).toEqual(all("teléfono"));
    expect(all("telefono").length).toBeGreaterThan(0);
  });
});
