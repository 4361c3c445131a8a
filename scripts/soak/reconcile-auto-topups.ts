/**
 * The automatic top-ups' part of the soak's reconciliation (issue 29, decisions 0120, 0121): what
 * the scheduler charged during a load run, against the charges' rows, the top-ups they paid, the
 * store's payments and the payment provider's own records. Pure, like scripts/soak/reconcile.ts,
 * which merges its findings.
 *
 * - No line is charged twice in one period: at most one approved payment across the top-ups of a
 *   line's charges of one period, and at the provider at most one approved charge under the
 *   period's idempotency keys (`auto-topup:<number>:<period>:<attempt>`).
 * - Every top-up the scheduler made (`auto-topup:<charge id>`) is its charge's, and a charge is
 *   `paid` exactly when its top-up is paid by an automatic charge.
 * - No automatic top-up was charged more times in a Mexico City month than its cap.
 * - Every automatic top-up a customer was told is on is stored for that line.
 */
import type {
  AutoTopupChargesTable,
  AutoTopupsTable,
  PaymentsTable,
  SandboxCheckoutsTable,
  TopupsTable,
} from "~/db/schema";
import { mexicoCityDate } from "~/lib/mexico-city-days";

export type AutoTopupFindingKind =
  /** A line charged more than once for one period (the store's payments or the provider's). */
  | "auto-topup-charged-twice"
  /** More paid charges in a month than the automatic top-up's cap. */
  | "auto-topup-over-cap"
  /** A top-up made by the scheduler that no charge made, or a charge whose state and top-up disagree. */
  | "auto-topup-mismatch"
  /** A customer was told their automatic top-up is on, and none is stored. */
  | "auto-topup-missing";

export interface AutoTopupFinding {
  kind: AutoTopupFindingKind;
  subject: "automatic top-up";
  detail: string;
}

/** What a submission ended in, as scripts/soak/reconcile.ts defines it. */
type Outcome = "told" | "refused" | "unknown";

/** An automatic top-up a customer switched on for one of their lines. */
export interface ToldAutoTopup {
  journey: string;
  customer: number;
  number: string;
  outcome: Outcome;
}

export interface AutoTopupRows {
  autoTopups: ReadonlyArray<
    Pick<AutoTopupsTable, "id" | "account_sub" | "number" | "monthly_max" | "state">
  >;
  charges: ReadonlyArray<
    Pick<
      AutoTopupChargesTable,
      "id" | "auto_topup_id" | "number" | "period" | "state" | "topup_id" | "settled_at"
    >
  >;
  /** The provider's saved-card charges (the sandbox's checkouts with an idempotency key). */
  providerCharges: ReadonlyArray<
    Pick<SandboxCheckoutsTable, "id" | "merchant_reference" | "status" | "idempotency_key">
  >;
}

export interface AutoTopupReconciliation {
  findings: AutoTopupFinding[];
  checked: {
    told: number;
    autoTopups: number;
    charges: number;
    paidCharges: number;
    periods: number;
  };
}

/** The key the scheduler makes a charge's top-up under (app/auto-topup/scheduler.server.ts). */
export const AUTO_TOPUP_KEY_PREFIX = "auto-topup:";

/** Whether a top-up is the scheduler's rather than a customer's form. */
export function isAutomaticTopupKey(key: string): boolean {
  return key.startsWith(AUTO_TOPUP_KEY_PREFIX);
}

/** "auto-topup:<number>:<period>:<attempt>" → "<number> <period>"; null for another key. */
function periodOfProviderKey(key: string | null): string | null {
  if (!key?.startsWith(AUTO_TOPUP_KEY_PREFIX)) return null;
  const rest = key.slice(AUTO_TOPUP_KEY_PREFIX.length);
  const attempt = rest.lastIndexOf(":");
  const number = rest.indexOf(":");
  if (attempt <= number || number < 0) return null;
  return `${rest.slice(0, number)} ${rest.slice(number + 1, attempt)}`;
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

export function reconcileAutoTopups(input: {
  ledger: readonly ToldAutoTopup[];
  rows: AutoTopupRows;
  topups: ReadonlyArray<Pick<TopupsTable, "id" | "folio" | "idempotency_key" | "status">>;
  payments: ReadonlyArray<Pick<PaymentsTable, "id" | "purpose" | "reference" | "status">>;
}): AutoTopupReconciliation {
  const { rows } = input;
  const findings: AutoTopupFinding[] = [];
  const add = (kind: AutoTopupFindingKind, detail: string) =>
    findings.push({ kind, subject: "automatic top-up", detail });

  const chargesById = new Map(rows.charges.map((charge) => [charge.id, charge]));
  const topupsById = new Map(input.topups.map((topup) => [topup.id, topup]));
  const approvedByTopup = groupBy(
    input.payments.filter(
      (payment) => payment.purpose === "topup" && payment.status === "approved",
    ),
    (payment) => payment.reference,
  );

  // The scheduler's top-ups and their charges agree.
  for (const topup of input.topups.filter((each) => isAutomaticTopupKey(each.idempotency_key))) {
    const charge = chargesById.get(topup.idempotency_key.slice(AUTO_TOPUP_KEY_PREFIX.length));
    if (!charge || charge.topup_id !== topup.id) {
      add("auto-topup-mismatch", `${topup.folio} was made automatically, but no charge made it`);
      continue;
    }
    // Paid by the scheduler, or by the customer from the link a 3-D Secure charge sent them.
    const paidOk = charge.state === "paid" || charge.state === "awaiting_customer";
    if (topup.status === "paid" && !paidOk) {
      add(
        "auto-topup-mismatch",
        `${topup.folio} is paid, but its charge ${charge.id} (${charge.number} ${charge.period}) is ${charge.state}`,
      );
    }
  }
  for (const charge of rows.charges) {
    if (charge.state !== "paid") continue;
    const topup = charge.topup_id ? topupsById.get(charge.topup_id) : undefined;
    if (topup?.status !== "paid") {
      add(
        "auto-topup-mismatch",
        `charge ${charge.id} (${charge.number} ${charge.period}) is paid, but its top-up is ${topup ? topup.status : "missing"}`,
      );
    }
  }

  // One charge per line and period: the store's payments…
  const byPeriod = groupBy(rows.charges, (charge) => `${charge.number} ${charge.period}`);
  for (const [period, charges] of byPeriod) {
    const approved = charges.flatMap((charge) =>
      charge.topup_id ? (approvedByTopup.get(charge.topup_id) ?? []) : [],
    );
    if (charges.length > 1 || approved.length > 1) {
      add(
        "auto-topup-charged-twice",
        `${period}: ${charges.length} charges, ${approved.length} approved payments (${approved.map((payment) => payment.id).join(", ")})`,
      );
    }
  }
  // …and the provider's.
  const providerApproved = rows.providerCharges.filter((charge) => charge.status === "approved");
  for (const [period, charges] of groupBy(providerApproved, (charge) =>
    periodOfProviderKey(charge.idempotency_key),
  )) {
    if (period !== null && charges.length > 1) {
      add(
        "auto-topup-charged-twice",
        `${period}: the provider approved ${charges.length} charges (${charges.map((charge) => charge.id).join(", ")})`,
      );
    }
  }

  // The cap, per Mexico City month.
  const autoTopupsById = new Map(rows.autoTopups.map((autoTopup) => [autoTopup.id, autoTopup]));
  const paidByMonth = groupBy(
    rows.charges.filter((charge) => charge.state === "paid" && charge.settled_at),
    (charge) => `${charge.auto_topup_id} ${mexicoCityDate(charge.settled_at!).slice(0, 7)}`,
  );
  for (const [key, charges] of paidByMonth) {
    const autoTopup = autoTopupsById.get(key.split(" ")[0]!);
    if (autoTopup && charges.length > Number(autoTopup.monthly_max)) {
      add(
        "auto-topup-over-cap",
        `${autoTopup.number}: ${charges.length} charges in ${key.split(" ")[1]}, its cap is ${autoTopup.monthly_max}`,
      );
    }
  }

  // What customers were told is stored.
  const stored = new Set(rows.autoTopups.map((autoTopup) => autoTopup.number));
  for (const told of input.ledger.filter((entry) => entry.outcome === "told")) {
    if (!stored.has(told.number)) {
      add("auto-topup-missing", `${told.journey} switched ${told.number}'s on; none is stored`);
    }
  }

  return {
    findings,
    checked: {
      told: input.ledger.filter((entry) => entry.outcome === "told").length,
      autoTopups: rows.autoTopups.length,
      charges: rows.charges.length,
      paidCharges: rows.charges.filter((charge) => charge.state === "paid").length,
      periods: byPeriod.size,
    },
  };
}
