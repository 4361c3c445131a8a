import { Link } from "react-router";
import { helpQuestionPath } from "~/help/paths";
import { useTranslation } from "~/i18n/react";
import type { ArticleView, BlockView } from "~/help/view";
import { RichText } from "./rich-text";

function AnswerBlock({ block, chatHref }: { block: BlockView; chatHref?: string }) {
  if (block.kind === "paragraph") {
    return (
      <p>
        <RichText inlines={block.content} chatHref={chatHref} />
      </p>
    );
  }
  const List = block.kind === "steps" ? "ol" : "ul";
  return (
    <div>
      {block.title ? (
        <p className="font-semibold text-slate-900">
          <RichText inlines={block.title} chatHref={chatHref} />
        </p>
      ) : null}
      <List
        className={`mt-1 space-y-1 pl-6 ${block.kind === "steps" ? "list-decimal" : "list-disc"}`}
      >
        {block.items.map((item, index) => (
          <li key={index}>
            <RichText inlines={item} chatHref={chatHref} />
          </li>
        ))}
      </List>
    </div>
  );
}

/** The link a customer copies to share this question; the server renders it open. */
export function questionHref(slug: string): string {
  return `${helpQuestionPath(slug)}#${slug}`;
}

/**
 * One question: a `<details>` whose summary is the question, so it opens and closes without
 * JavaScript. Its id is the question's anchor.
 */
export interface HelpArticleLabels {
  permalink: string;
  category: string;
}

/** The article's fixed texts, translated once for the whole list rather than once per article. */
export function useHelpArticleLabels(): HelpArticleLabels {
  const { t } = useTranslation("help");
  return { permalink: t("article.permalink"), category: t("results.category") };
}

export function HelpArticle({
  article,
  open,
  labels,
  chatHref,
  showCategory = false,
}: {
  article: ArticleView;
  open: boolean;
  labels: HelpArticleLabels;
  chatHref?: string;
  showCategory?: boolean;
}) {
  const questionId = `${article.slug}-pregunta`;
  return (
    <details
      id={article.slug}
      open={open}
      className="group scroll-mt-24 rounded-lg border border-slate-200 bg-white open:border-primary/40 open:shadow-sm"
      data-testid="help-article"
    >
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-lg px-4 py-3 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
        <span>
          {showCategory ? (
            <span className="block text-sm font-medium text-primary-dark">
              <span className="sr-only">{labels.category} </span>
              {article.categoryName}
            </span>
          ) : null}
          <span
            id={questionId}
            className="block font-semibold text-slate-900"
            data-testid="help-question"
          >
            <RichText inlines={article.question} linkless />
          </span>
          {article.excerpt ? (
            <span
              className="mt-1 block text-sm text-slate-700 group-open:hidden"
              data-testid="help-excerpt"
            >
              <RichText inlines={article.excerpt} linkless />
            </span>
          ) : null}
        </span>
        <svg
          aria-hidden="true"
          focusable="false"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          className="mt-0.5 shrink-0 text-slate-600 transition-transform group-open:rotate-180"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </summary>
      <div
        className="space-y-3 border-t border-slate-200 px-4 py-4 text-slate-800"
        data-testid="help-answer"
      >
        {article.answer.map((block, index) => (
          <AnswerBlock key={index} block={block} chatHref={chatHref} />
        ))}
        <p className="pt-1 text-sm">
          <Link
            to={questionHref(article.slug)}
            // The question tells one "link to this question" from the others.
            aria-describedby={questionId}
            className="font-medium text-secondary underline underline-offset-2 hover:text-secondary-dark"
          >
            {labels.permalink}
          </Link>
        </p>
      </div>
    </details>
  );
}
