import { excerptWindow, highlightRuns, matchRanges, type Inline } from "./highlight";
import {
  searchHelp,
  type HelpIndex,
  type IndexedArticle,
  type IndexedBlock,
  type IndexedText,
} from "./search";
import { MAX_QUERY_LENGTH, type ArticleView, type BlockView } from "./view";

/** What a request to the help centre changes on the page. */
export interface HelpCenterView {
  /** The search as typed (trimmed, at most 100 characters), for the search box. */
  query: string;
  /** The question to render open (from `?pregunta=`), when it names one. */
  openSlug: string | null;
  /** Null without a search: the page then lists every question (browse.ts). */
  search: { count: number; partial: boolean; results: ArticleView[] } | null;
}

function inlines(text: IndexedText, terms: readonly string[]): Inline[] {
  return highlightRuns(text.runs, matchRanges(text.text, terms));
}

function blockView(block: IndexedBlock, terms: readonly string[]): BlockView {
  if (block.kind === "paragraph") return { kind: "paragraph", content: inlines(block.text, terms) };
  return {
    kind: block.kind,
    title: block.title ? inlines(block.title, terms) : null,
    items: block.items.map((item) => inlines(item, terms)),
  };
}

const ELLIPSIS = "…";

function excerpt(entry: IndexedArticle, terms: readonly string[]): Inline[] | null {
  for (const text of entry.body) {
    const ranges = matchRanges(text.text, terms);
    if (ranges.length === 0) continue;
    const window = excerptWindow(text.text.original, ranges[0]);
    return [
      ...(window.clippedStart ? [ELLIPSIS] : []),
      ...highlightRuns(text.runs, ranges, window),
      ...(window.clippedEnd ? [ELLIPSIS] : []),
    ];
  }
  return null;
}

/** A search result: the article with the search's terms marked, and an excerpt of the answer. */
export function resultView(entry: IndexedArticle, terms: readonly string[]): ArticleView {
  return {
    slug: entry.article.slug,
    categoryName: entry.category.name,
    question: inlines(entry.question, terms),
    answer: entry.answer.map((block) => blockView(block, terms)),
    excerpt: excerpt(entry, terms),
  };
}

export function helpCenterView(
  index: HelpIndex,
  params: { query: string | null; question: string | null },
): HelpCenterView {
  const query = (params.query ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const openSlug = params.question && index.bySlug.has(params.question) ? params.question : null;
  if (!query) return { query, openSlug, search: null };
  const outcome = searchHelp(index, query);
  return {
    query,
    openSlug,
    search: {
      count: outcome.hits.length,
      partial: outcome.partial,
      results: outcome.hits.map((hit) => resultView(hit.entry, outcome.terms)),
    },
  };
}
