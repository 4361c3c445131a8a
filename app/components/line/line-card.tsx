import { Link } from "react-router";
import { useTranslation } from "~/i18n/react";
import type { AccountLineView } from "~/line/line-pages.server";
import { formatLineNumber } from "~/line/line-view";
import { linePath, LINES_PATH, topupLinePath } from "~/line/paths";
import { REGISTRATION_PATH } from "~/registration/paths";
import { DataBar, FiguresMissing, RunningOutNotice, useDataText } from "./line-figures";

const linkClass = "font-medium text-secondary underline underline-offset-4";

/** One line of the account at a glance: status, data and days left, and the way to its page. */
export function LineCard({ line }: { line: AccountLineView }) {
  const { t } = useTranslation("line");
  const text = useDataText();
  const number = formatLineNumber(line.number);
  const { figures } = line;
  return (
    <li
      className="rounded-lg border border-slate-200 p-5"
      data-testid="line-card"
      data-number={line.number}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-mono text-xl font-bold text-slate-900">{number}</h3>
        {figures.state === "shown" ? (
          <span
            className="rounded bg-slate-100 px-2 py-0.5 text-sm font-medium text-slate-800"
            data-testid="line-status"
          >
            {t(`status.${figures.summary.status}`)}
          </span>
        ) : null}
      </div>
      <div className="mt-3">
        {figures.state === "shown" ? (
          <>
            <RunningOutNotice
              reason={figures.summary.runningOut}
              topUpTo={topupLinePath(line.number)}
            />
            {figures.summary.data ? (
              <>
                <p data-testid="data-left">
                  {t("summary.dataLeft", { remaining: text(figures.summary.data.remainingMb) })}
                </p>
                <DataBar data={figures.summary.data} />
              </>
            ) : (
              <p>{t("summary.noPackage")}</p>
            )}
            {figures.summary.package ? (
              <p className="mt-2 text-sm text-slate-700" data-testid="line-days-left">
                {figures.summary.package.daysLeft > 0
                  ? t("summary.daysLeft", { count: figures.summary.package.daysLeft })
                  : t("summary.ended")}
              </p>
            ) : null}
          </>
        ) : (
          <FiguresMissing state={figures.state} />
        )}
      </div>
      <Link to={linePath(line.number)} className={`mt-3 inline-block ${linkClass}`}>
        {t("list.details", { number })}
      </Link>
    </li>
  );
}

/** The account's lines as cards. */
export function LineCards({ lines }: { lines: AccountLineView[] }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2" data-testid="line-cards">
      {lines.map((line) => (
        <LineCard key={line.number} line={line} />
      ))}
    </ul>
  );
}

/**
 * The account overview's first section: the lines, and the ways to all of them, to add one and to
 * register one to its holder.
 */
export function AccountLinesSection({ lines }: { lines: AccountLineView[] }) {
  const { t } = useTranslation("line");
  return (
    <section className="mb-8" aria-labelledby="account-my-lines" data-testid="account-my-lines">
      <h2 id="account-my-lines" className="mb-4 text-2xl font-bold text-slate-900">
        {t("overview.heading")}
      </h2>
      {lines.length ? (
        <LineCards lines={lines} />
      ) : (
        <p className="text-slate-800">{t("overview.none")}</p>
      )}
      <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
        <Link to={LINES_PATH} className={linkClass}>
          {t("overview.all")}
        </Link>
        <Link to={`${LINES_PATH}#agregar`} className={linkClass}>
          {t("overview.add")}
        </Link>
        <Link to={REGISTRATION_PATH} className={linkClass}>
          {t("overview.register")}
        </Link>
      </p>
    </section>
  );
}
