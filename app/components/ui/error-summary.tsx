import { useEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { translateFormMessage } from "~/lib/form-messages";
import { useHydrated } from "~/lib/use-hydrated";
import type { LabelledField } from "./labelled-fields";

/**
 * What the server refused, at the top of the form: its message about the whole form (a wrong
 * password, a duplicate request, the database busy) and one link per wrong field (its label; the
 * message stays beside the field) to the field's id, so a customer without JavaScript reaches
 * each one from here. With JavaScript the summary takes the focus when a refusal arrives (not the
 * page's body), and a link focuses its field. It shows only after the server answered
 * (`refused`); while typing, each field shows its own messages.
 */
export function ErrorSummary({
  refused,
  formErrors,
  fields = [],
  heading,
  testId,
  children,
}: {
  /** True once the server answered this form with a refusal; the reply's identity refocuses. */
  refused: unknown;
  formErrors?: string[];
  /** The form's fields, from its one list (`labelFields(…).summary`). */
  fields?: LabelledField[];
  /** A translation key, shown when fields are wrong. */
  heading?: string;
  testId?: string;
  /** More about the form's message (a link to the status lookup). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const ref = useRef<HTMLDivElement>(null);
  const wrong = fields.filter(
    (field, index) =>
      field.meta.errors?.length &&
      fields.findIndex((other) => other.meta.id === field.meta.id) === index,
  );
  const messages = formErrors ?? [];
  const visible = Boolean(refused) && (messages.length > 0 || wrong.length > 0);

  useEffect(() => {
    if (!refused) return;
    // After conform's own effect, which focuses the first field it holds an error for (and, for
    // a form-level error, the unnamed submit button): the summary says what happened first.
    const timer = setTimeout(() => ref.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [refused]);

  if (!visible) return null;
  const focusField = (id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(id);
    const focusable = target?.matches("fieldset") ? target.querySelector("input") : target;
    if (!focusable) return;
    event.preventDefault();
    focusable.scrollIntoView({ block: "center" });
    (focusable as HTMLElement).focus();
  };
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      data-testid={testId ?? "error-summary"}
      className="rounded border-l-4 border-error bg-error-soft px-4 py-3 wrap-anywhere text-error focus:outline-3 focus:outline-offset-2 focus:outline-error"
    >
      {messages.length ? (
        <div data-testid="form-alert-message">
          {messages.map((message) => (
            <p key={message}>{translateFormMessage(t, message)}</p>
          ))}
        </div>
      ) : null}
      {children}
      {wrong.length ? (
        <>
          <p className={messages.length ? "mt-2 font-semibold" : "font-semibold"}>
            {t(heading ?? "common:errors.summaryHeading")}
          </p>
          <ul className="mt-1 list-disc space-y-1 pl-5" data-testid="error-summary-fields">
            {wrong.map(({ meta, label }) => (
              <li key={meta.id}>
                <a
                  href={`#${meta.id}`}
                  onClick={hydrated ? focusField(meta.id) : undefined}
                  className="underline underline-offset-2"
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** The server's reply when it refused the form (what `ErrorSummary` shows and focuses), else null. */
export function refusal<T extends { status?: string }>(result: T | null | undefined): T | null {
  return result?.status === "error" ? result : null;
}
