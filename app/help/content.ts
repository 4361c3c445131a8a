/**
 * The shape of the help centre's content (app/help/articles.data.ts) and the small inline markup
 * its texts may use:
 *
 * - `literal` for something the customer types or reads exactly (an APN, a code to dial), shown
 *   as code;
 * - [words](/path) for a link to a page of this site, and [words](chat) for the WhatsApp chat.
 *
 * Nothing else is interpreted, so content never becomes HTML.
 */
export interface HelpCategory {
  slug: string;
  name: string;
  description: string;
}

export type AnswerBlock =
  | { kind: "paragraph"; text: string }
  /** Numbered steps to follow in order; `title` says for what ("En Android"). */
  | { kind: "steps"; title?: string; items: string[] }
  | { kind: "list"; title?: string; items: string[] };

export interface HelpArticle {
  /** The question's anchor and `?pregunta=` value; never change it once published. */
  slug: string;
  category: string;
  question: string;
  /** Words customers search with that the text itself may not use ("chip", "señal"). */
  keywords: string[];
  answer: AnswerBlock[];
}

/** The target of a link to the WhatsApp chat, whose address comes from the configuration. */
export const CHAT_LINK = "chat";

export type InlineRun =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "link"; text: string; href: string };

const INLINE_MARKUP = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function parseInline(source: string): InlineRun[] {
  const runs: InlineRun[] = [];
  let position = 0;
  for (const match of source.matchAll(INLINE_MARKUP)) {
    const index = match.index ?? 0;
    if (index > position) runs.push({ kind: "text", text: source.slice(position, index) });
    if (match[1] !== undefined) runs.push({ kind: "code", text: match[1] });
    else runs.push({ kind: "link", text: match[2], href: match[3] });
    position = index + match[0].length;
  }
  if (position < source.length) runs.push({ kind: "text", text: source.slice(position) });
  return runs;
}

/** What a customer reads: the text without its markup. */
export function plainText(runs: InlineRun[]): string {
  return runs.map((run) => run.text).join("");
}

/** Every text an article holds, in reading order (paragraphs, list titles, list items). */
export function answerTexts(answer: AnswerBlock[]): string[] {
  return answer.flatMap((block) =>
    block.kind === "paragraph"
      ? [block.text]
      : [...(block.title ? [block.title] : []), ...block.items],
  );
}

export function isAllowedHref(href: string): boolean {
  return href === CHAT_LINK || /^\/(?!\/)[\w\-./?=&#%]*$/.test(href);
}
