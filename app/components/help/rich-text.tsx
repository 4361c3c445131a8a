import { Link } from "react-router";
import { ExternalLink } from "~/components/layout/external-link";
import { CHAT_LINK } from "~/help/content";
import type { Inline, Segment } from "~/help/highlight";

const markClass = "rounded-sm bg-amber-200 px-0.5 text-slate-950";
const linkClass =
  "font-medium text-secondary underline underline-offset-2 hover:text-secondary-dark";
const codeClass = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.95em] text-slate-900";

function segments(list: readonly Segment[]) {
  return list.map((segment, index) =>
    typeof segment === "string" ? (
      segment
    ) : (
      <mark key={index} className={markClass}>
        {segment.mark}
      </mark>
    ),
  );
}

/**
 * Help content as React elements: text, `code`, links and search highlights (`<mark>`), built
 * from data, never from HTML. `linkless` renders links as text, for places where a link may not
 * go (inside a `<summary>`, which is itself interactive).
 */
export function RichText({
  inlines,
  chatHref,
  linkless = false,
}: {
  inlines: readonly Inline[];
  chatHref?: string;
  linkless?: boolean;
}) {
  return inlines.map((inline, index) => {
    if (typeof inline === "string") return inline;
    if ("mark" in inline) {
      return (
        <mark key={index} className={markClass}>
          {inline.mark}
        </mark>
      );
    }
    if ("code" in inline) {
      return (
        <code key={index} className={codeClass}>
          {segments(inline.code)}
        </code>
      );
    }
    if (linkless) return segments(inline.text);
    if (inline.href === CHAT_LINK) {
      return chatHref ? (
        <ExternalLink key={index} href={chatHref} className={linkClass}>
          {segments(inline.text)}
        </ExternalLink>
      ) : (
        segments(inline.text)
      );
    }
    return (
      <Link
        key={index}
        to={inline.href}
        className={linkClass}
        // Documents such as the PDFs are files, not pages of the app.
        reloadDocument={/\.[a-z0-9]+$/i.test(inline.href)}
      >
        {segments(inline.text)}
      </Link>
    );
  });
}
