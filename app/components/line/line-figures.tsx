import { Link } from "react-router";
import type { ReactNode } from "react";
import { formatPrice } from "~/catalog/money";
import { Alert } from "~/components/ui/alert";
import { buttonClass } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import { useTranslation } from "~/i18n/react";
import { formatDate } from "~/lib/dates";
import type { AllowanceView, DataView, LineSummary } from "~/line/line-view";
import type { LineFigures } from "~/line/line-pages.server";
import { REGISTRATION_PATH } from "~/registration/paths";
import { REGISTRATION_RULES } from "~/registration/registration-rules";
import { formatData } from "~/topup/amounts";

/** "1.5 GB", "300 MB": as the catalogue writes data. */
export function useDataText() {
  return (megabytes: number) => {
    const data = formatData(megabytes);
    return `${data.value} ${data.unit}`;
  };
}

/** The data left as a bar (the UI kit's progress): full with the whole package, empty when used up. */
export function DataBar({ data }: { data: DataView }) {
  const { t } = useTranslation("line");
  const text = useDataText();
  return (
    <Progress
      value={100 - data.usedPercent}
      label={t("summary.dataBar")}
      valueText={t("summary.dataLeft", { remaining: text(data.remainingMb) })}
      className="mt-2"
      testId="data-bar"
    />
  );
}

function DataFigure({ data }: { data: DataView | null }) {
  const { t } = useTranslation("line");
  const text = useDataText();
  if (!data) return <>{t("summary.noPackage")}</>;
  return (
    <>
      <span className="block font-semibold" data-testid="data-left">
        {t("summary.dataLeft", { remaining: text(data.remainingMb) })}
      </span>
      <span className="block text-sm text-slate-700" data-testid="data-used">
        {t("summary.dataUsed", { used: text(data.usedMb), total: text(data.totalMb) })}
      </span>
      <DataBar data={data} />
    </>
  );
}

function AllowanceFigure({
  allowance,
  unit,
  unlimited,
}: {
  allowance: AllowanceView;
  unit?: (value: number) => string;
  unlimited: string;
}) {
  const { t } = useTranslation("line");
  if (!allowance) return <>{t("summary.none")}</>;
  if (allowance.kind === "unlimited") return <>{unlimited}</>;
  const show = unit ?? String;
  return (
    <>
      {t("summary.quotaLeft", {
        remaining: show(allowance.remaining),
        total: show(allowance.total),
      })}
    </>
  );
}

function Figure({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The button that tops this line up, its number filled in. */
export function TopUpLink({ to, label }: { to: string; label?: string }) {
  const { t } = useTranslation("line");
  return (
    <Link to={to} className={buttonClass({ width: "blockOnPhone" })} data-testid="top-up-line">
      {label ?? t("summary.topUp")}
    </Link>
  );
}

/** "Your line runs out" with the top-up button, when it does. */
export function RunningOutNotice({
  reason,
  topUpTo,
}: {
  reason: LineSummary["runningOut"];
  topUpTo: string;
}) {
  const { t } = useTranslation("line");
  if (!reason) return null;
  return (
    <Alert tone="info" className="mb-4 space-y-3" testId="running-out">
      <p className="font-semibold">{t(`runningOut.${reason}`)}</p>
      <TopUpLink to={topUpTo} />
    </Alert>
  );
}

/**
 * "Suspendida: sin registro" (issue 27, decision 0100): what the line still reaches, and the way
 * to register it, which lifts the suspension at once.
 */
export function UnregisteredNotice() {
  const { t } = useTranslation("line");
  return (
    <Alert tone="error" className="mb-4 space-y-3" testId="line-unregistered">
      <p className="font-semibold">{t("unregistered.heading")}</p>
      <p>
        {t("unregistered.reach", {
          numbers: REGISTRATION_RULES.reachableWhileSuspended.join(", "),
        })}
      </p>
      <p>{t("unregistered.lift")}</p>
      <Link to={REGISTRATION_PATH} className={buttonClass({ width: "blockOnPhone" })}>
        {t("unregistered.register")}
      </Link>
    </Alert>
  );
}

/** The BSS did not answer, or does not know the line: said in place of the figures. */
export function FiguresMissing({ state }: { state: "unavailable" | "unknown" }) {
  const { t } = useTranslation("line");
  return (
    <Alert tone={state === "unavailable" ? "error" : "info"} testId="line-unavailable">
      {t(state === "unavailable" ? "summary.unavailable" : "summary.unknown")}
    </Alert>
  );
}

/**
 * A line's figures: status, saldo, data (bar and text), minutes, SMS, social networks where the
 * package has them, the package in force and its vigencia; the running-out notice first.
 */
export function LineFiguresView({
  figures,
  topUpTo,
}: {
  figures: LineFigures;
  /** The top-up form with this line filled in. */
  topUpTo: string;
}) {
  const { t } = useTranslation("line");
  const text = useDataText();
  if (figures.state !== "shown") return <FiguresMissing state={figures.state} />;
  const line = figures.summary;
  return (
    <div data-testid="line-figures">
      {line.status === "unregistered" ? <UnregisteredNotice /> : null}
      <RunningOutNotice reason={line.runningOut} topUpTo={topUpTo} />
      <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
        <Figure label={t("summary.status")} testId="line-status">
          {t(`status.${line.status}`)}
        </Figure>
        <Figure label={t("summary.balance")} testId="line-balance">
          {formatPrice(line.moneyMxn)}
        </Figure>
        <Figure label={t("summary.package")} testId="line-package">
          {line.package?.name ?? t("summary.noPackage")}
        </Figure>
        <div className="min-w-0 sm:col-span-2 lg:col-span-3">
          <dt className="text-sm font-medium text-slate-700">{t("summary.data")}</dt>
          <dd className="text-slate-900" data-testid="line-data">
            <DataFigure data={line.data} />
          </dd>
        </div>
        <Figure label={t("summary.minutes")} testId="line-minutes">
          <AllowanceFigure allowance={line.minutes} unlimited={t("summary.unlimited")} />
        </Figure>
        <Figure label={t("summary.sms")} testId="line-sms">
          <AllowanceFigure allowance={line.sms} unlimited={t("summary.unlimited")} />
        </Figure>
        {line.socialData ? (
          <Figure label={t("summary.social")} testId="line-social">
            <AllowanceFigure
              allowance={line.socialData}
              unit={text}
              unlimited={t("summary.unlimitedSocial")}
            />
          </Figure>
        ) : null}
        <Figure label={t("summary.validity")} testId="line-validity">
          {line.package ? (
            <>
              <span className="block">
                {t("summary.validUntil", { date: formatDate(line.package.endsAt) })}
              </span>
              <span className="block text-sm text-slate-700" data-testid="line-days-left">
                {line.package.daysLeft > 0
                  ? t("summary.daysLeft", { count: line.package.daysLeft })
                  : t("summary.ended")}
              </span>
            </>
          ) : (
            t("summary.noPackage")
          )}
        </Figure>
      </dl>
      {line.runningOut ? null : (
        <div className="mt-6">
          <TopUpLink to={topUpTo} />
        </div>
      )}
    </div>
  );
}
