import {
  answerTexts,
  parseInline,
  plainText,
  type AnswerBlock,
  type HelpArticle,
  type HelpCategory,
  type InlineRun,
} from "./content";
import { fold, foldWithMap, type FoldedText } from "./fold";
import { wordPrefixPositions } from "./highlight";
import { queryTerms } from "./query";

/** A text of the content, parsed and folded once, when the index is built. */
export interface IndexedText {
  runs: InlineRun[];
  text: FoldedText;
}

export type IndexedBlock =
  | { kind: "paragraph"; text: IndexedText }
  | { kind: "steps" | "list"; title: IndexedText | null; items: IndexedText[] };

export interface IndexedArticle {
  article: HelpArticle;
  category: HelpCategory;
  /** Position in the content file: the order of equally good results. */
  order: number;
  question: IndexedText;
  answer: IndexedBlock[];
  /** The answer's texts in reading order, for matching and excerpts. */
  body: IndexedText[];
  foldedKeywords: string;
}

export interface HelpIndex {
  categories: HelpCategory[];
  articles: IndexedArticle[];
  bySlug: ReadonlyMap<string, IndexedArticle>;
}

function indexText(source: string): IndexedText {
  const runs = parseInline(source);
  return { runs, text: foldWithMap(plainText(runs)) };
}

function indexBlock(block: AnswerBlock): IndexedBlock {
  if (block.kind === "paragraph") return { kind: "paragraph", text: indexText(block.text) };
  return {
    kind: block.kind,
    title: block.title ? indexText(block.title) : null,
    items: block.items.map(indexText),
  };
}

/**
 * Parses and folds every text once. Build it at module load and reuse it for every request:
 * searching then only folds the query.
 */
export function buildHelpIndex(categories: HelpCategory[], articles: HelpArticle[]): HelpIndex {
  const categoryBySlug = new Map(categories.map((category) => [category.slug, category]));
  const indexed = articles.map((article, order): IndexedArticle => {
    const category = categoryBySlug.get(article.category);
    if (!category) throw new Error(`Help article ${article.slug}: unknown category`);
    return {
      article,
      category,
      order,
      question: indexText(article.question),
      answer: article.answer.map(indexBlock),
      body: answerTexts(article.answer).map(indexText),
      foldedKeywords: fold(article.keywords.join(" | ")),
    };
  });
  return {
    categories,
    articles: indexed,
    bySlug: new Map(indexed.map((entry) => [entry.article.slug, entry])),
  };
}

export interface SearchHit {
  entry: IndexedArticle;
  /** How many of the query's terms the article holds anywhere. */
  matchedTerms: number;
  /** How many of the query's terms its question holds: the first ranking key. */
  titleTerms: number;
  score: number;
}

export interface SearchOutcome {
  terms: string[];
  hits: SearchHit[];
  /**
   * True when no article holds every term and the hits are those holding most of them, so the
   * page can say that the results match only part of the search.
   */
  partial: boolean;
}

const TITLE_WEIGHT = 10;
const KEYWORD_WEIGHT = 6;
const BODY_MATCHES_COUNTED = 3;

function scoreArticle(entry: IndexedArticle, terms: string[]): SearchHit {
  let matchedTerms = 0;
  let titleTerms = 0;
  let score = 0;
  for (const term of terms) {
    const inTitle = wordPrefixPositions(entry.question.text.folded, term).length > 0;
    const inKeywords = wordPrefixPositions(entry.foldedKeywords, term).length > 0;
    const bodyMatches = entry.body.reduce(
      (count, text) => count + wordPrefixPositions(text.text.folded, term).length,
      0,
    );
    if (inTitle) titleTerms += 1;
    if (inTitle || inKeywords || bodyMatches > 0) matchedTerms += 1;
    score +=
      (inTitle ? TITLE_WEIGHT : 0) +
      (inKeywords ? KEYWORD_WEIGHT : 0) +
      Math.min(bodyMatches, BODY_MATCHES_COUNTED);
  }
  return { entry, matchedTerms, titleTerms, score };
}

/** Questions whose title holds more of the terms come first, whatever the answers say. */
export function compareHits(a: SearchHit, b: SearchHit): number {
  return (
    b.matchedTerms - a.matchedTerms ||
    b.titleTerms - a.titleTerms ||
    b.score - a.score ||
    a.entry.order - b.entry.order
  );
}

/**
 * Every article holding all the query's terms (in its question, keywords or answer),
 * best first. When none holds them all, those holding at least half of them, marked `partial`.
 */
export function searchHelp(index: HelpIndex, rawQuery: string): SearchOutcome {
  const terms = queryTerms(rawQuery);
  if (terms.length === 0) return { terms, hits: [], partial: false };
  const scored = index.articles
    .map((entry) => scoreArticle(entry, terms))
    .filter((hit) => hit.matchedTerms > 0);
  const complete = scored.filter((hit) => hit.matchedTerms === terms.length);
  if (complete.length > 0 || terms.length === 1) {
    return { terms, hits: complete.sort(compareHits), partial: false };
  }
  const enough = Math.ceil(terms.length / 2);
  const hits = scored.filter((hit) => hit.matchedTerms >= enough).sort(compareHits);
  return { terms, hits, partial: hits.length > 0 };
}
