import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import { answerTexts, isAllowedHref, parseInline, plainText } from "./content";

describe("inline markup", () => {
  it("reads code spans and links, and leaves everything else as text", () => {
    expect(
      parseInline("Escribe `internet.conectamovil.mx` en [Portabilidad](/portabilidad)."),
    ).toEqual([
      { kind: "text", text: "Escribe " },
      { kind: "code", text: "internet.conectamovil.mx" },
      { kind: "text", text: " en " },
      { kind: "link", text: "Portabilidad", href: "/portabilidad" },
      { kind: "text", text: "." },
    ]);
    expect(parseInline("Sin marcas <b>ni HTML</b>")).toEqual([
      { kind: "text", text: "Sin marcas <b>ni HTML</b>" },
    ]);
  });

  it("gives the text a customer reads", () => {
    expect(plainText(parseInline("Marca `*100#` o [escríbenos](chat)"))).toBe(
      "Marca *100# o escríbenos",
    );
  });

  it("allows only links to this site's pages and to the chat", () => {
    expect(isAllowedHref("/portabilidad")).toBe(true);
    expect(isAllowedHref("/docs/politica-de-uso-justo.pdf")).toBe(true);
    expect(isAllowedHref("chat")).toBe(true);
    expect(isAllowedHref("https://example.com")).toBe(false);
    expect(isAllowedHref("//example.com")).toBe(false);
    expect(isAllowedHref("javascript:alert(1)")).toBe(false);
  });
});

const everyText = HELP_ARTICLES.flatMap((article) => [
  article.question,
  ...answerTexts(article.answer),
]);
const allContent = everyText.map((text) => plainText(parseInline(text))).join("\n");

describe("the help centre's content", () => {
  it("has at least 24 questions, each in a known category, with unique stable slugs", () => {
    expect(HELP_ARTICLES.length).toBeGreaterThanOrEqual(24);
    const slugs = HELP_ARTICLES.map((article) => article.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const categories = new Set(HELP_CATEGORIES.map((category) => category.slug));
    for (const article of HELP_ARTICLES) expect(categories.has(article.category)).toBe(true);
  });

  it("gives every category questions, and every question a real answer", () => {
    for (const category of HELP_CATEGORIES) {
      expect(HELP_ARTICLES.some((article) => article.category === category.slug)).toBe(true);
    }
    for (const article of HELP_ARTICLES) {
      expect(article.question).toMatch(/\?$/);
      const answerLength = answerTexts(article.answer).join(" ").length;
      expect(answerLength, article.slug).toBeGreaterThan(200);
    }
  });

  it("uses only well-formed markup and links that lead somewhere on this site", () => {
    for (const text of everyText) {
      const runs = parseInline(text);
      for (const run of runs) {
        if (run.kind === "link") expect(isAllowedHref(run.href), run.href).toBe(true);
        // A stray backtick or bracket means a markup typo the customer would see.
        if (run.kind === "text") expect(run.text, text).not.toMatch(/[`[\]]/);
      }
    }
  });

  it("answers what Mexican prepaid customers ask", () => {
    const topics: Array<[string, RegExp]> = [
      ["activation", /activ/i],
      ["APN name", /internet\.conectamovil\.mx/],
      ["APN on Android and iPhone", /Nombres de punto de acceso[\s\S]*Red de datos celulares/],
      ["balance", /\*100#/],
      ["eSIM compatibility", /EID/],
      ["coverage", /cobertura/i],
      ["portability NIP by call or SMS to 051", /llama al `?051`?[\s\S]*SMS/i],
      ["NIP valid 5 days", /5 días naturales/],
      ["porting within 24 hours", /24 horas/],
      ["top-ups", /recarga/i],
      ["payment methods", /Visa, Mastercard y American Express/],
      ["SIM delivery", /días hábiles/],
      ["roaming USA and Canada", /Estados Unidos y Canadá/],
      ["fair use", /uso justo/i],
      ["hotspot", /Compartir Internet/],
      ["lost or stolen SIM", /robo|robada/i],
      ["CURP registry deadline", /30 de junio de 2026/],
    ];
    for (const [topic, pattern] of topics) expect(allContent, topic).toMatch(pattern);
  });
});

describe("the help centre and the legal documents", () => {
  const legal = (slug: string) =>
    readFileSync(path.resolve("content/legal", `${slug}.md`), "utf8").replace(/\s+/g, " ");

  // Where an answer states a policy, it must be the published one: when a document changes, this
  // test points at the answers to update.
  const sharedFacts: Array<[string, string, RegExp]> = [
    ["number kept 12 months after expiry", "contrato-de-adhesion", /12 meses/],
    ["physical SIM and replacement cost", "tarifas", /\$50/],
    ["cash top-ups at stores", "tarifas", /efectivo/],
    ["invoice by email within the month", "tarifas", /hola@conectamovil\.mx/],
    ["fair-use voice threshold", "politica-de-uso-justo", /5,000 minutos/],
    ["fair-use social threshold", "politica-de-uso-justo", /15 GB/],
    ["fair-use social speed", "politica-de-uso-justo", /512 kbps/],
    ["NIP valid 5 days", "portabilidad", /5 días naturales/],
    ["porting within 24 hours", "portabilidad", /24 horas/],
  ];
  for (const [fact, document, pattern] of sharedFacts) {
    it(`agree on: ${fact}`, () => {
      expect(legal(document), document).toMatch(pattern);
      expect(allContent, "help centre").toMatch(pattern);
    });
  }
});
