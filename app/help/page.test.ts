import { describe, expect, it } from "vitest";
import { HELP_ARTICLES, HELP_CATEGORIES } from "./articles.data";
import type { RichRun } from "./highlight";
import { helpCenterView } from "./page";
import { buildHelpIndex } from "./search";

const index = buildHelpIndex(HELP_CATEGORIES, HELP_ARTICLES);
const text = (runs: RichRun[]) =>
  runs.flatMap((run) => run.parts.map((part) => part.text)).join("");
const marks = (runs: RichRun[]) =>
  runs.flatMap((run) => run.parts.filter((part) => part.mark).map((part) => part.text));

describe("the help centre page", () => {
  it("without a search, lists every category with all its questions, nothing marked", () => {
    const view = helpCenterView(index, { query: null, question: null });
    expect(view.search).toBeNull();
    expect(view.sections.map((section) => section.slug)).toEqual(
      HELP_CATEGORIES.map((category) => category.slug),
    );
    const listed = view.sections.flatMap((section) => section.articles);
    expect(listed).toHaveLength(HELP_ARTICLES.length);
    expect(listed.every((article) => marks(article.question).length === 0)).toBe(true);
    expect(view.categories.reduce((sum, category) => sum + category.count, 0)).toBe(
      HELP_ARTICLES.length,
    );
  });

  it("treats a blank search as no search", () => {
    expect(helpCenterView(index, { query: "   ", question: null }).search).toBeNull();
  });

  it("opens the question named by ?pregunta= only when it exists", () => {
    expect(helpCenterView(index, { query: null, question: "nip-de-portabilidad" }).openSlug).toBe(
      "nip-de-portabilidad",
    );
    expect(helpCenterView(index, { query: null, question: "<script>" }).openSlug).toBeNull();
  });

  it("gives search results with a count, marked questions and an excerpt of the answer", () => {
    const view = helpCenterView(index, { query: "  Portabilidad ", question: null });
    expect(view.query).toBe("Portabilidad");
    expect(view.sections).toEqual([]);
    expect(view.search!.count).toBe(view.search!.results.length);
    const first = view.search!.results[0];
    expect(marks(first.question)).toEqual(["portabilidad"]);
    expect(marks(first.excerpt!).length).toBeGreaterThan(0);
    expect(text(first.excerpt!).length).toBeLessThanOrEqual(202);
  });

  it("marks accented words found by an unaccented search", () => {
    const view = helpCenterView(index, { query: "telefono", question: null });
    const allMarks = view.search!.results.flatMap((result) => [
      ...marks(result.question),
      ...result.answer.flatMap((block) =>
        block.kind === "paragraph" ? marks(block.content) : block.items.flatMap(marks),
      ),
    ]);
    expect(allMarks).toContain("teléfono");
  });

  it("keeps the search as typed, cut to 100 characters", () => {
    const view = helpCenterView(index, { query: "a".repeat(150), question: null });
    expect(view.query).toHaveLength(100);
  });

  it("reports no results for words the content does not hold", () => {
    const view = helpCenterView(index, { query: "zzqx", question: null });
    expect(view.search).toEqual({ count: 0, partial: false, results: [] });
  });
});
