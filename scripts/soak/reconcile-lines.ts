/**
 * The line's part of the soak's reconciliation (issue 26): what the BSS simulator holds after a
 * load run against the top-ups the store took, the usage the operator recorded and what the
 * customers were told. Pure, like scripts/soak/reconcile.ts, which merges its findings.
 *
 * - Every paid top-up was applied at the BSS exactly once, to its number, for its amount, and
 *   its job is done; nothing else was applied (no unpaid or cancelled top-up, no unknown id).
 * - Every line's balances add up: the data granted is the sum of its packages' grants (its plan's
 *   and its top-ups', by the catalogue), the data, minutes and messages used are the usage
 *   recorded, and each package bought ahead starts when the one before it ends.
 * - Usage was recorded only where the operator asked for it, and never more than asked.
 * - A line a customer added with a code is in that customer's account and nobody else's; an eSIM
 *   the customer saw installed became a line with its plan.
 */
import type {
  BssSimActivationsTable,
  BssSimLinesTable,
  BssSimPackagesTable,
  BssSimTopupsTable,
  BssSimUsageTable,
  LineJobsTable,
  LinesTable,
  TopupsTable,
} from "~/db/schema";
import { planOffer, topupOffer, type PackageOffer } from "~/line/line";

export type LineFindingKind =
  /** A paid top-up the BSS never applied (or whose job did not finish). */
  | "topup-not-applied"
  /** A top-up applied more than once, or with another number or amount than paid. */
  | "topup-applied-wrongly"
  /** The BSS applied something that is not a paid top-up. */
  | "applied-unpaid"
  /** A line job still pending or refused when the run ended. */
  | "line-job-unfinished"
  /** A line's balances are not its grants minus its recorded usage. */
  | "balance-mismatch"
  /** Usage recorded where nobody asked, or more than asked. */
  | "usage-mismatch"
  /** A line added with a code that is not in its customer's account, or in two customers'. */
  | "line-account-mismatch"
  /** An eSIM shown installed that did not become a line with its plan. */
  | "activation-missing";

export type LineSubject = "line" | "line job";

export interface LineFinding {
  kind: LineFindingKind;
  subject: LineSubject;
  detail: string;
}

export interface LineNote {
  subject: LineSubject;
  detail: string;
}

/** What a submission ended in, as scripts/soak/reconcile.ts defines it. */
type Outcome = "told" | "refused" | "unknown";

/** A line a customer proved with its SMS code to add it to their account. */
export interface ToldLineAdded {
  journey: string;
  /** The simulated customer's index: one account each. */
  customer: number;
  number: string;
  outcome: Outcome;
}

/** An eSIM of a paid order the customer had the sandbox install. */
export interface ToldInstall {
  journey: string;
  orderRef: string;
  position: number;
  outcome: Outcome;
}

/** `npm run ops -- consumo` as the soak ran it; exitCode null when it never ended. */
export interface AskedUsage {
  number: string;
  dataMb: number;
  minutes: number;
  sms: number;
  exitCode: number | null;
}

export interface LineLedger {
  added: readonly ToldLineAdded[];
  installs: readonly ToldInstall[];
  usage: readonly AskedUsage[];
}

export interface LineRows {
  lines: ReadonlyArray<Pick<LinesTable, "number" | "account_sub" | "source">>;
  lineJobs: ReadonlyArray<Pick<LineJobsTable, "id" | "kind" | "state" | "result">>;
  bssSimLines: ReadonlyArray<
    Pick<BssSimLinesTable, "number" | "status" | "data_total_mb" | "data_used_mb">
  >;
  bssSimPackages: ReadonlyArray<
    Pick<
      BssSimPackagesTable,
      | "number"
      | "position"
      | "applied_by"
      | "offer_id"
      | "starts_at"
      | "ends_at"
      | "minutes_allowance"
      | "sms_allowance"
      | "minutes_used"
      | "sms_used"
    >
  >;
  bssSimTopups: ReadonlyArray<
    Pick<BssSimTopupsTable, "topup_id" | "number" | "amount" | "offer_id">
  >;
  bssSimUsage: ReadonlyArray<
    Pick<BssSimUsageTable, "number" | "day" | "data_mb" | "minutes" | "sms">
  >;
  bssSimActivations: ReadonlyArray<
    Pick<BssSimActivationsTable, "external_id" | "number" | "offer_id">
  >;
}

export interface LineReconciliation {
  findings: LineFinding[];
  notes: LineNote[];
  checked: {
    appliedTopups: number;
    lines: number;
    linesWithUsage: number;
    usageCalls: number;
    linesAdded: number;
    installs: number;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The ids the store gives its line jobs (app/line/line-jobs.server.ts). */
const topupJobId = (topupId: string) => `topup:${topupId}`;
const esimActivationRef = (orderRef: string, position: number) => `esim:${orderRef}:${position}`;

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const value = key(item);
    const group = groups.get(value);
    if (group) group.push(item);
    else groups.set(value, [item]);
  }
  return groups;
}

const sum = <T>(items: readonly T[], value: (item: T) => number) =>
  items.reduce((total, item) => total + Number(value(item)), 0);

export function reconcileLines(input: {
  ledger: LineLedger;
  rows: LineRows;
  topups: ReadonlyArray<Pick<TopupsTable, "id" | "folio" | "status" | "amount" | "phone_number">>;
}): LineReconciliation {
  const { ledger, rows, topups } = input;
  const findings: LineFinding[] = [];
  const notes: LineNote[] = [];
  const found = (kind: LineFindingKind, subject: LineSubject, detail: string) =>
    findings.push({ kind, subject, detail });

  const jobs = new Map(rows.lineJobs.map((job) => [job.id, job]));
  const applied = groupBy(rows.bssSimTopups, (row) => row.topup_id);
  const packagesBy = groupBy(rows.bssSimPackages, (row) => row.applied_by);
  const topupById = new Map(topups.map((topup) => [topup.id, topup]));

  // Every paid top-up applied once, to its number, for its amount; its job done.
  const paid = topups.filter((topup) => topup.status === "paid");
  for (const topup of paid) {
    const at = applied.get(topup.id) ?? [];
    const packages = packagesBy.get(topupJobId(topup.id)) ?? [];
    const job = jobs.get(topupJobId(topup.id));
    if (at.length === 0 || packages.length === 0) {
      found(
        "topup-not-applied",
        "line",
        `paid top-up ${topup.folio} was never applied to ${topup.phone_number} (its job is ${job?.state ?? "missing"})`,
      );
      continue;
    }
    if (at.length > 1 || packages.length > 1) {
      found(
        "topup-applied-wrongly",
        "line",
        `top-up ${topup.folio} was applied ${Math.max(at.length, packages.length)} times`,
      );
    }
    const [row] = at;
    if (row.number !== topup.phone_number || Number(row.amount) !== Number(topup.amount)) {
      found(
        "topup-applied-wrongly",
        "line",
        `top-up ${topup.folio} paid ${topup.amount} for ${topup.phone_number}; the BSS applied ${row.amount} to ${row.number}`,
      );
    }
    if (packages.some((pkg) => pkg.number !== topup.phone_number)) {
      found(
        "topup-applied-wrongly",
        "line",
        `top-up ${topup.folio} gave a package to another line`,
      );
    }
    if (job?.state !== "done") {
      found(
        "topup-not-applied",
        "line job",
        `top-up ${topup.folio} is applied but its job is ${job?.state ?? "missing"}`,
      );
    }
  }
  // Nothing applied that is not a paid top-up.
  for (const [topupId] of applied) {
    const topup = topupById.get(topupId);
    if (topup?.status !== "paid") {
      found(
        "applied-unpaid",
        "line",
        topup
          ? `top-up ${topup.folio} is ${topup.status} but was applied at the BSS`
          : `the BSS applied top-up ${topupId}, which the store does not have`,
      );
    }
  }
  for (const [appliedBy] of packagesBy) {
    if (appliedBy.startsWith("topup:") && !applied.has(appliedBy.slice("topup:".length))) {
      found(
        "applied-unpaid",
        "line",
        `a package was given by ${appliedBy}, with no top-up applied`,
      );
    }
  }
  // Every job finished: the soak waits for the queue before it stops the server.
  for (const job of rows.lineJobs) {
    if (job.state !== "done") {
      found("line-job-unfinished", "line job", `${job.kind} job ${job.id} is ${job.state}`);
    }
  }

  // Every line's balances: grants minus recorded usage.
  const topupRows = new Map(rows.bssSimTopups.map((row) => [row.topup_id, row]));
  const activations = new Map(rows.bssSimActivations.map((row) => [row.external_id, row]));
  const packagesOf = groupBy(rows.bssSimPackages, (row) => row.number);
  const usageOf = groupBy(rows.bssSimUsage, (row) => row.number);
  const offerOf = (appliedBy: string): PackageOffer | null => {
    const [kind, ...rest] = appliedBy.split(":");
    const reference = rest.join(":");
    if (kind === "topup") {
      const row = topupRows.get(reference);
      return row ? topupOffer(Number(row.amount)) : null;
    }
    if (kind === "activation") {
      const row = activations.get(reference);
      return row ? planOffer(row.offer_id) : null;
    }
    return null;
  };
  for (const line of rows.bssSimLines) {
    const packages = [...(packagesOf.get(line.number) ?? [])].sort(
      (left, right) => Number(left.position) - Number(right.position),
    );
    const usage = usageOf.get(line.number) ?? [];
    const mismatch = (detail: string) =>
      found("balance-mismatch", "line", `${line.number}: ${detail}`);
    let granted = 0;
    let offersKnown = true;
    let lapsed = false;
    packages.forEach((pkg, index) => {
      if (Number(pkg.position) !== index)
        mismatch(`its packages' positions skip to ${pkg.position}`);
      const offer = offerOf(pkg.applied_by);
      if (!offer) {
        offersKnown = false;
        mismatch(`package ${index} was given by ${pkg.applied_by}, which the BSS has no record of`);
        return;
      }
      if (offer.offerId !== pkg.offer_id) {
        mismatch(
          `package ${index} is ${pkg.offer_id}, but ${pkg.applied_by} bought ${offer.offerId}`,
        );
      }
      granted += offer.dataMb;
      const startsAt = Date.parse(pkg.starts_at);
      if (Date.parse(pkg.ends_at) - startsAt !== offer.validityDays * DAY_MS) {
        mismatch(
          `package ${index} lasts from ${pkg.starts_at} to ${pkg.ends_at}, not ${offer.validityDays} days`,
        );
      }
      // Bought while another was in force, it starts when that one ends (the vigencia stacks);
      // bought after it ended, it starts then, and the data left over may lapse.
      const before = packages[index - 1];
      if (before && pkg.starts_at < before.ends_at) {
        mismatch(
          `package ${index} starts ${pkg.starts_at}, before the one before it ends (${before.ends_at})`,
        );
      }
      if (before && pkg.starts_at > before.ends_at) lapsed = true;
      for (const [used, allowance, what] of [
        [pkg.minutes_used, pkg.minutes_allowance, "minutes"],
        [pkg.sms_used, pkg.sms_allowance, "messages"],
      ] as const) {
        if (Number(used) < 0 || (allowance !== null && Number(used) > Number(allowance))) {
          mismatch(`package ${index} used ${used} ${what} of ${allowance ?? "unlimited"}`);
        }
      }
    });
    if (lapsed) {
      notes.push({
        subject: "line",
        detail: `${line.number}: a package began after the one before it ended; its data is not checked`,
      });
    } else if (offersKnown && Number(line.data_total_mb) !== granted) {
      mismatch(`${line.data_total_mb} MB granted, its packages grant ${granted} MB`);
    }
    const dataUsed = sum(usage, (row) => row.data_mb);
    if (Number(line.data_used_mb) !== dataUsed && !lapsed) {
      mismatch(`${line.data_used_mb} MB used, the usage recorded adds up to ${dataUsed} MB`);
    }
    if (Number(line.data_used_mb) > Number(line.data_total_mb) || Number(line.data_used_mb) < 0) {
      mismatch(`${line.data_used_mb} MB used of ${line.data_total_mb} MB`);
    }
    const minutesUsed = sum(packages, (pkg) => pkg.minutes_used);
    const smsUsed = sum(packages, (pkg) => pkg.sms_used);
    if (minutesUsed !== sum(usage, (row) => row.minutes)) {
      mismatch(
        `its packages used ${minutesUsed} minutes, the usage recorded ${sum(usage, (row) => row.minutes)}`,
      );
    }
    if (smsUsed !== sum(usage, (row) => row.sms)) {
      mismatch(
        `its packages used ${smsUsed} messages, the usage recorded ${sum(usage, (row) => row.sms)}`,
      );
    }
  }

  // Usage only where the operator asked, never more than asked (an ops call that never ended may
  // or may not have recorded its usage: it counts as asked).
  const asked = groupBy(
    ledger.usage.filter((call) => call.exitCode === 0 || call.exitCode === null),
    (call) => call.number,
  );
  for (const [number, recorded] of usageOf) {
    const calls = asked.get(number) ?? [];
    const compared = [
      ["MB", sum(recorded, (row) => row.data_mb), sum(calls, (call) => call.dataMb)],
      ["minutes", sum(recorded, (row) => row.minutes), sum(calls, (call) => call.minutes)],
      ["messages", sum(recorded, (row) => row.sms), sum(calls, (call) => call.sms)],
    ] as const;
    for (const [what, total, limit] of compared) {
      if (total > limit) {
        found("usage-mismatch", "line", `${number}: ${total} ${what} recorded, ${limit} asked`);
      }
    }
  }

  // Lines added with a code: in their customer's account, one account per customer.
  const accountOf = new Map(rows.lines.map((line) => [line.number, line.account_sub]));
  const accountsOfCustomer = new Map<number, Set<string>>();
  const customersOfAccount = new Map<string, Set<number>>();
  const told = ledger.added.filter((entry) => entry.outcome === "told");
  for (const entry of told) {
    const account = accountOf.get(entry.number);
    if (account === undefined) {
      found(
        "line-account-mismatch",
        "line",
        `${entry.journey} was told ${entry.number} is in the account, which has no such line`,
      );
      continue;
    }
    const accounts = accountsOfCustomer.get(entry.customer) ?? new Set();
    accounts.add(account);
    accountsOfCustomer.set(entry.customer, accounts);
    const customers = customersOfAccount.get(account) ?? new Set();
    customers.add(entry.customer);
    customersOfAccount.set(account, customers);
  }
  for (const [customer, accounts] of accountsOfCustomer) {
    if (accounts.size > 1) {
      found(
        "line-account-mismatch",
        "line",
        `customer ${customer}'s lines are in ${accounts.size} accounts`,
      );
    }
  }
  for (const [, customers] of customersOfAccount) {
    if (customers.size > 1) {
      found(
        "line-account-mismatch",
        "line",
        `the lines of customers ${[...customers].join(", ")} are in one account`,
      );
    }
  }

  // An eSIM shown installed became a line with its plan's package.
  const installs = ledger.installs.filter((entry) => entry.outcome === "told");
  for (const install of installs) {
    const reference = esimActivationRef(install.orderRef, install.position);
    const job = jobs.get(`activation:${reference}`);
    const activation = activations.get(reference);
    if (!job || !activation) {
      found(
        "activation-missing",
        "line",
        `${install.journey}: the eSIM installed at position ${install.position} has ${job ? "a job but no line at the BSS" : "no activation job"}`,
      );
      continue;
    }
    if (
      !(packagesBy.get(`activation:${reference}`) ?? []).some(
        (pkg) => pkg.number === activation.number,
      )
    ) {
      found(
        "activation-missing",
        "line",
        `${install.journey}: line ${activation.number} has no plan package`,
      );
    }
  }

  return {
    findings,
    notes,
    checked: {
      appliedTopups: rows.bssSimTopups.length,
      lines: rows.bssSimLines.length,
      linesWithUsage: usageOf.size,
      usageCalls: ledger.usage.length,
      linesAdded: told.length,
      installs: installs.length,
    },
  };
}
