import { Link } from "@remix-run/react";
import { ExternalLink } from "~/components/layout/external-link";
import { CHAT_LINK } from "~/help/content";
import type { Part, RichRun } from "~/help/highlight";

function Parts({ parts }: { parts: Part[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.mark ? (
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-slate-950">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

const linkClass =
  "font-medium text-secondary underline underline-offset-2 hover:text-secondary-dark";

/**
 * Help content as React elements: text, `code`, links and search highlights (`<mark>`), built
 * from data, never from HTML. `linkless` renders links as text, for places where a link may not
 * go (inside a `<summary>`, which is itself interactive).
 */
export function RichText({
  runs,
  chatHref,
  linkless = false,
}: {
  runs: RichRun[];
  chatHref?: string;
  linkless?: boolean;
}) {
  return (
    <>
      {runs.map((run, index) => {
        if (run.kind === "code") {
          return (
            <code
              key={index}
              className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.95em] text-slate-900"
            >
              <Parts parts={run.parts} />
            </code>
          );
        }
        if (run.kind === "link" && !linkless) {
          if (run.href === CHAT_LINK) {
            return chatHref ? (
              <ExternalLink key={index} href={chatHref} className={linkClass}>
                <Parts parts={run.parts} />
              </ExternalLink>
            ) : (
              <Parts key={index} parts={run.parts} />
            );
          }
          return (
            <Link
              key={index}
              to={run.href}
              className={linkClass}
              // Documents such as the PDFs are files, not pages of the app.
              reloadDocument={/\.[a-z0-9]+$/i.test(run.href)}
            >
              <Parts parts={run.parts} />
            </Link>
          );
        }
        return <Parts key={index} parts={run.parts} />;
      })}
    </>
  );
}
