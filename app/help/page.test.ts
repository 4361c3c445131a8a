import { describe, expect, it } from "vitest";
import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import { inlineText, markedWords } from "./highlight";
import { helpCenterView } from "./page";
import { buildHelpIndex } from "./search";
import { browseView, type BlockView } from "./view";

const index = buildHelpIndex(HELP_CATEGORIES, HELP_ARTICLES);
const helpCenter = (params: { query: string | null; question: string | null }) =>
  helpCenterView(index, params);
const blockMarks = (block: BlockView) =>
  block.kind === "paragraph"
    ? markedWords(block.content)
    : [...markedWords(block.title ?? []), ...block.items.flatMap(markedWords)];

describe("the help centre page", () => {
  it("without a search, lists every category with all its questions, nothing marked", () => {
    expect(helpCenter({ query: null, question: null }).search).toBeNull();
    const view = browseView(HELP_CATEGORIES, HELP_ARTICLES);
    expect(view.sections.map((section) => section.slug)).toEqual(
      HELP_CATEGORIES.map((category) => category.slug),
    );
    const listed = view.sections.flatMap((section) => section.articles);
    expect(listed).toHaveLength(HELP_ARTICLES.length);
    expect(listed.flatMap((article) => markedWords(article.question))).toEqual([]);
    expect(listed.flatMap((article) => article.answer.flatMap(blockMarks))).toEqual([]);
    expect(view.categories.reduce((sum, category) => sum + category.count, 0)).toBe(
      HELP_ARTICLES.length,
    );
  });

  it("treats a blank search as no search", () => {
    expect(helpCenter({ query: "   ", question: null }).search).toBeNull();
  });

  it("opens the question named by ?pregunta= only when it exists", () => {
    expect(helpCenter({ query: null, question: "nip-de-portabilidad" }).openSlug).toBe(
      "nip-de-portabilidad",
    );
    expect(helpCenter({ query: null, question: "<script>" }).openSlug).toBeNull();
    expect(helpCenter({ query: "nip", question: "nip-de-portabilidad" }).openSlug).toBe(
      "nip-de-portabilidad",
    );
  });

  it("gives search results with a count, marked questions and an excerpt of the answer", () => {
    const view = helpCenter({ query: "  Portabilidad ", question: null });
    expect(view.query).toBe("Portabilidad");
    expect(view.search!.count).toBe(view.search!.results.length);
    const first = view.search!.results[0];
    expect(markedWords(first.question).map((word) => word.toLowerCase())).toEqual(["portabilidad"]);
    expect(markedWords(first.excerpt!).length).toBeGreaterThan(0);
    expect(inlineText(first.excerpt!).length).toBeLessThanOrEqual(202);
  });

  it("marks accented words found by an unaccented search", () => {
    const view = helpCenter({ query: "telefono", question: null });
    const allMarks = view.search!.results.flatMap((result) => [
      ...markedWords(result.question),
      ...result.answer.flatMap(blockMarks),
    ]);
    expect(allMarks).toContain("teléfono");
    expect(allMarks).not.toContain("telefono");
  });

  it("keeps the search as typed, cut to 100 characters", () => {
    expect(helpCenter({ query: "a".repeat(150), question: null }).query).toHaveLength(100);
  });

  it("reports no results for words the content does not hold", () => {
    expect(helpCenter({ query: "zzqx", question: null }).search).toEqual({
      count: 0,
      partial: false,
      results: [],
    });
  });
});
