import {
  excerptWindow,
  highlightRuns,
  matchRanges,
  type RichRun,
  type TextRange,
} from "./highlight";
import {
  MAX_QUERY_LENGTH,
  searchHelp,
  type HelpIndex,
  type IndexedArticle,
  type IndexedBlock,
  type IndexedText,
} from "./search";

export type BlockView =
  | { kind: "paragraph"; content: RichRun[] }
  | { kind: "steps" | "list"; title: RichRun[] | null; items: RichRun[][] };

export interface ArticleView {
  slug: string;
  categorySlug: string;
  categoryName: string;
  question: RichRun[];
  answer: BlockView[];
  /** In search results whose answer matched: the matching stretch of the answer. */
  excerpt: RichRun[] | null;
}

export interface CategorySummary {
  slug: string;
  name: string;
  description: string;
  count: number;
}

export interface CategorySection extends CategorySummary {
  articles: ArticleView[];
}

export interface HelpCenterView {
  /** The search as typed (trimmed), for the search box. */
  query: string;
  /** The question to render open (from `?pregunta=`), when it names one. */
  openSlug: string | null;
  categories: CategorySummary[];
  /** Every category with its questions; empty while searching. */
  sections: CategorySection[];
  search: { count: number; partial: boolean; results: ArticleView[] } | null;
}

function rich(text: IndexedText, terms: readonly string[]): RichRun[] {
  return highlightRuns(text.runs, terms.length ? matchRanges(text.text, terms) : []);
}

function blockView(block: IndexedBlock, terms: readonly string[]): BlockView {
  if (block.kind === "paragraph") return { kind: "paragraph", content: rich(block.text, terms) };
  return {
    kind: block.kind,
    title: block.title ? rich(block.title, terms) : null,
    items: block.items.map((item) => rich(item, terms)),
  };
}

const ELLIPSIS = "…";

function excerpt(entry: IndexedArticle, terms: readonly string[]): RichRun[] | null {
  for (const text of entry.body) {
    const ranges: TextRange[] = matchRanges(text.text, terms);
    if (ranges.length === 0) continue;
    const window = excerptWindow(text.text.original, ranges[0]);
    return [
      ...(window.clippedStart ? [{ kind: "text" as const, parts: [{ text: ELLIPSIS }] }] : []),
      ...highlightRuns(text.runs, ranges, window),
      ...(window.clippedEnd ? [{ kind: "text" as const, parts: [{ text: ELLIPSIS }] }] : []),
    ];
  }
  return null;
}

export function articleView(entry: IndexedArticle, terms: readonly string[] = []): ArticleView {
  return {
    slug: entry.article.slug,
    categorySlug: entry.category.slug,
    categoryName: entry.category.name,
    question: rich(entry.question, terms),
    answer: entry.answer.map((block) => blockView(block, terms)),
    excerpt: terms.length ? excerpt(entry, terms) : null,
  };
}

/**
 * Everything the help centre page shows for a request: the categories with their questions, or
 * the results of a search with their matches marked.
 */
export function helpCenterView(
  index: HelpIndex,
  params: { query: string | null; question: string | null },
): HelpCenterView {
  const query = (params.query ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const openSlug = params.question && index.bySlug.has(params.question) ? params.question : null;
  const categories = index.categories.map((category) => ({
    ...category,
    count: index.articles.filter((entry) => entry.category.slug === category.slug).length,
  }));
  if (!query) {
    return {
      query,
      openSlug,
      categories,
      sections: categories.map((category) => ({
        ...category,
        articles: index.articles
          .filter((entry) => entry.category.slug === category.slug)
          .map((entry) => articleView(entry)),
      })),
      search: null,
    };
  }
  const outcome = searchHelp(index, query);
  return {
    query,
    openSlug,
    categories,
    sections: [],
    search: {
      count: outcome.hits.length,
      partial: outcome.partial,
      results: outcome.hits.map((hit) => articleView(hit.entry, outcome.terms)),
    },
  };
}
