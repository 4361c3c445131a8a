import type { AnswerBlock, HelpArticle, HelpCategory } from "./content";
import { parseInline } from "./content";
import { highlightRuns, type Inline } from "./highlight";

/** The longest search the page accepts (the search box's `maxlength`); longer queries are cut. */
export const MAX_QUERY_LENGTH = 100;

/** What the page renders, built from the content: text as `Inline`s (see highlight.ts). */
export type BlockView =
  | { kind: "paragraph"; content: Inline[] }
  | { kind: "steps" | "list"; title: Inline[] | null; items: Inline[][] };

export interface ArticleView {
  slug: string;
  categoryName: string;
  question: Inline[];
  answer: BlockView[];
  /** In search results whose answer matched: the matching stretch of the answer. */
  excerpt: Inline[] | null;
}

export interface CategorySummary extends HelpCategory {
  count: number;
}

export interface CategorySection extends CategorySummary {
  articles: ArticleView[];
}

const unmarked = (source: string): Inline[] => highlightRuns(parseInline(source), []);

function plainBlock(block: AnswerBlock): BlockView {
  if (block.kind === "paragraph") return { kind: "paragraph", content: unmarked(block.text) };
  return {
    kind: block.kind,
    title: block.title ? unmarked(block.title) : null,
    items: block.items.map(unmarked),
  };
}

/** An article as written, nothing marked. */
export function plainArticleView(article: HelpArticle, category: HelpCategory): ArticleView {
  return {
    slug: article.slug,
    categoryName: category.name,
    question: unmarked(article.question),
    answer: article.answer.map(plainBlock),
    excerpt: null,
  };
}

/** Every category with the number of its questions and the questions themselves, in order. */
export function browseView(
  categories: HelpCategory[],
  articles: HelpArticle[],
): { categories: CategorySummary[]; sections: CategorySection[] } {
  const sections = categories.map((category) => {
    const own = articles.filter((article) => article.category === category.slug);
    return {
      ...category,
      count: own.length,
      articles: own.map((article) => plainArticleView(article, category)),
    };
  });
  return {
    categories: sections.map(({ articles: _articles, ...summary }) => summary),
    sections,
  };
}
