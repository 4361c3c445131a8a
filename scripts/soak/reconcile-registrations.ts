/**
 * The line registration's part of the soak's reconciliation (issue 27): the registrations the
 * store kept after a load run, against the rule and against what the customers were told. Pure,
 * like scripts/soak/reconcile.ts, which merges its findings.
 *
 * - No holder (by holder_key_hash) has more current lines than the rule allows (persona moral
 *   has no limit), and no line has two current registrations.
 * - Every folio is VIN-YYYY-NNNNNN and belongs to one registration only.
 * - A replaced registration names, in replaced_by, a later registration of the same number, and
 *   a current one names none.
 * - No online registration followed three failed online validations of its number in the 24 hours
 *   before it. Checkable because both sides are in the database with their instants, written by
 *   one clock: the store counts the failures before it validates, so a registration after three
 *   failures is the store letting the online path go on where the rule ends it.
 * - Every folio a receipt showed is a registration of that number to the holder typed; a
 *   registration the store refused (the 10-line limit, the online path ended) left none behind.
 */
import type { RegistrationAttemptsTable, RegistrationsTable } from "~/db/schema";
import {
  lineLimitFor,
  parseRegistrationFolio,
  REGISTRATION_RULES,
} from "~/registration/registration-rules";

export type RegistrationFindingKind =
  /** A holder with more current lines than the rule allows. */
  | "holder-over-limit"
  /** A line with two (or more) current registrations. */
  | "line-two-holders"
  /** A folio that is not VIN-YYYY-NNNNNN, or one on two registrations. */
  | "folio-invalid"
  | "folio-duplicate"
  /** A replaced registration whose replaced_by is not a later one of the same number. */
  | "replacement-broken"
  /** An online registration after three failed online validations of its number in 24 hours. */
  | "attempts-exceeded"
  /** A folio a receipt showed that is not a registration of that number and holder. */
  | "registration-missing"
  /** A registration the store refused that was stored all the same. */
  | "registration-refused-but-stored";

export type RegistrationSubject = "registration";

export interface RegistrationFinding {
  kind: RegistrationFindingKind;
  subject: RegistrationSubject;
  detail: string;
}

/** What a submission ended in, as scripts/soak/reconcile.ts defines it. */
type Outcome = "told" | "refused" | "unknown";

/** One registration a simulated customer made at /registro-de-linea. */
export interface ToldRegistration {
  journey: string;
  customer: number;
  number: string;
  /** The holder as typed, and their key as the store masks it (the ledger keeps no whole CURP). */
  holderName: string;
  holderKeyMasked: string;
  /** "told": the receipt showed `folio`; "refused": the store said no (see `refusal`). */
  outcome: Outcome;
  folio: string | null;
  /** Why it was refused: the holder's 10 lines, or the online path ended (3 failures). */
  refusal: "line-limit" | "in-person" | null;
}

export interface RegistrationLedger {
  registrations: readonly ToldRegistration[];
}

export interface RegistrationRows {
  registrations: ReadonlyArray<
    Pick<
      RegistrationsTable,
      | "id"
      | "folio"
      | "number"
      | "holder_kind"
      | "holder_name"
      | "holder_key_hash"
      | "holder_key_masked"
      | "channel"
      | "registered_at"
      | "replaced_at"
      | "replaced_by"
    >
  >;
  registrationAttempts: ReadonlyArray<
    Pick<RegistrationAttemptsTable, "number" | "outcome" | "channel" | "attempted_at">
  >;
}

export interface RegistrationReconciliation {
  findings: RegistrationFinding[];
  checked: {
    registrations: number;
    current: number;
    replaced: number;
    holders: number;
    failedAttempts: number;
    told: number;
    refusedAtLimit: number;
    refusedInPerson: number;
  };
}

type Row = RegistrationRows["registrations"][number];

const WINDOW_MS = REGISTRATION_RULES.onlineAttemptsWindowHours * 3_600_000;

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

/** Whether `later` was made after `earlier`: by instant, and by folio within one millisecond. */
function isLater(later: Row, earlier: Row): boolean {
  if (later.registered_at !== earlier.registered_at) {
    return Date.parse(later.registered_at) > Date.parse(earlier.registered_at);
  }
  return later.folio > earlier.folio;
}

export function reconcileRegistrations(input: {
  ledger: RegistrationLedger;
  rows: RegistrationRows;
}): RegistrationReconciliation {
  const { ledger, rows } = input;
  const findings: RegistrationFinding[] = [];
  const found = (kind: RegistrationFindingKind, detail: string) =>
    findings.push({ kind, subject: "registration", detail });

  const current = rows.registrations.filter((row) => row.replaced_at === null);

  // At most the rule's lines per holder; the hash names no one, the masked key helps a reader.
  for (const [, lines] of groupBy(current, (row) => row.holder_key_hash)) {
    const limit = lineLimitFor(lines[0].holder_kind);
    if (limit !== null && lines.length > limit) {
      found(
        "holder-over-limit",
        `holder ${lines[0].holder_key_masked} has ${lines.length} current lines (the limit is ${limit}): ${lines.map((row) => row.folio).join(", ")}`,
      );
    }
  }
  // One current holder per line.
  for (const [number, registrations] of groupBy(current, (row) => row.number)) {
    if (registrations.length > 1) {
      found(
        "line-two-holders",
        `${number} has ${registrations.length} current registrations: ${registrations.map((row) => row.folio).join(", ")}`,
      );
    }
  }
  // Folios: the format, and one registration each.
  for (const [folio, registrations] of groupBy(rows.registrations, (row) => row.folio)) {
    if (parseRegistrationFolio(folio)?.folio !== folio) {
      found("folio-invalid", `registration ${registrations[0].id} has folio "${folio}"`);
    }
    if (registrations.length > 1) {
      found("folio-duplicate", `${folio} is on ${registrations.length} registrations`);
    }
  }
  // The history of a line: each replaced registration names a later one of the same number.
  const byId = new Map(rows.registrations.map((row) => [row.id, row]));
  for (const row of rows.registrations) {
    if (row.replaced_at === null) {
      if (row.replaced_by !== null) {
        found(
          "replacement-broken",
          `${row.folio} is current but says ${row.replaced_by} replaced it`,
        );
      }
      continue;
    }
    const replacement = row.replaced_by === null ? undefined : byId.get(row.replaced_by);
    if (!replacement) {
      found(
        "replacement-broken",
        `${row.folio} of ${row.number} was replaced by ${row.replaced_by === null ? "nothing named" : `${row.replaced_by}, which does not exist`}`,
      );
    } else if (replacement.number !== row.number) {
      found(
        "replacement-broken",
        `${row.folio} of ${row.number} was replaced by ${replacement.folio}, of ${replacement.number}`,
      );
    } else if (!isLater(replacement, row)) {
      found(
        "replacement-broken",
        `${row.folio} (${row.registered_at}) was replaced by ${replacement.folio}, made before it (${replacement.registered_at})`,
      );
    }
  }
  // Online registrations after the online path ended for their number.
  const failures = groupBy(
    rows.registrationAttempts.filter(
      (attempt) => attempt.channel === "online" && attempt.outcome !== "valid",
    ),
    (attempt) => attempt.number,
  );
  for (const row of rows.registrations) {
    if (row.channel !== "online") continue;
    const at = Date.parse(row.registered_at);
    const before = (failures.get(row.number) ?? []).filter((attempt) => {
      const time = Date.parse(attempt.attempted_at);
      return time < at && time > at - WINDOW_MS;
    });
    if (before.length >= REGISTRATION_RULES.onlineAttempts) {
      found(
        "attempts-exceeded",
        `${row.folio} registered ${row.number} online after ${before.length} failed validations in the 24 hours before it`,
      );
    }
  }
  // What the customers were told.
  const byFolio = groupBy(rows.registrations, (row) => row.folio);
  const toldFolios = new Set<string>();
  const told = ledger.registrations.filter((entry) => entry.outcome === "told");
  for (const entry of told) {
    if (entry.folio === null) {
      found(
        "registration-missing",
        `${entry.journey}: the receipt of ${entry.number} showed no folio`,
      );
      continue;
    }
    toldFolios.add(entry.folio);
    const stored = byFolio.get(entry.folio) ?? [];
    const row =
      stored.find(
        (candidate) =>
          candidate.number === entry.number &&
          candidate.holder_name === entry.holderName &&
          candidate.holder_key_masked === entry.holderKeyMasked,
      ) ?? stored[0];
    if (!row) {
      found(
        "registration-missing",
        `${entry.journey} was shown folio ${entry.folio} for ${entry.number}, which is no registration`,
      );
    } else if (
      row.number !== entry.number ||
      row.holder_name !== entry.holderName ||
      row.holder_key_masked !== entry.holderKeyMasked
    ) {
      found(
        "registration-missing",
        `${entry.journey} was shown folio ${entry.folio} for ${entry.number} to ${entry.holderName}; it registers ${row.number} to ${row.holder_name} (${row.holder_key_masked})`,
      );
    }
  }
  const refused = ledger.registrations.filter((entry) => entry.outcome === "refused");
  const byNumber = groupBy(rows.registrations, (row) => row.number);
  for (const entry of refused) {
    const stored = (byNumber.get(entry.number) ?? []).filter(
      (row) =>
        row.holder_name === entry.holderName &&
        row.holder_key_masked === entry.holderKeyMasked &&
        !toldFolios.has(row.folio),
    );
    for (const row of stored) {
      found(
        "registration-refused-but-stored",
        `${entry.journey} was refused (${entry.refusal ?? "4xx"}) registering ${entry.number}, yet ${row.folio} registers it to that holder`,
      );
    }
  }

  return {
    findings,
    checked: {
      registrations: rows.registrations.length,
      current: current.length,
      replaced: rows.registrations.length - current.length,
      holders: new Set(current.map((row) => row.holder_key_hash)).size,
      failedAttempts: [...failures.values()].reduce((sum, list) => sum + list.length, 0),
      told: told.length,
      refusedAtLimit: refused.filter((entry) => entry.refusal === "line-limit").length,
      refusedInPerson: refused.filter((entry) => entry.refusal === "in-person").length,
    },
  };
}
