import { describe, expect, it } from "vitest";
import {
  reconcileLines,
  type LineFindingKind,
  type LineLedger,
  type LineRows,
} from "./reconcile-lines";

type Topup = Parameters<typeof reconcileLines>[0]["topups"][number];
type Package = LineRows["bssSimPackages"][number];

const NUMBER = "5500001001";
const ESIM_LINE = "5599000001";

/** A package as the simulator writes it: unlimited minutes and messages, nothing used. */
function pkg(overrides: Partial<Package> & Pick<Package, "number" | "position" | "applied_by">) {
  return {
    offer_id: "conecta-50",
    starts_at: "2026-11-24T10:00:00.000Z",
    ends_at: "2026-12-01T10:00:00.000Z",
    minutes_allowance: null,
    sms_allowance: null,
    minutes_used: 0,
    sms_used: 0,
    ...overrides,
  };
}

/**
 * A consistent run: two paid top-ups of one line (Conecta 50, 1 GB for 7 days, then Conecta 150,
 * 5 GB for 30 days, stacked), one cancelled; 300 MB and 12 minutes of usage asked and recorded;
 * that line added to customer 4's account; an eSIM (Conecta 200) installed and activated.
 */
function cleanLines(): { ledger: LineLedger; rows: LineRows; topups: Topup[] } {
  const topups: Topup[] = [
    { id: "t1", folio: "REC-2026-000001", status: "paid", amount: 50, phone_number: NUMBER },
    { id: "t2", folio: "REC-2026-000002", status: "paid", amount: 150, phone_number: NUMBER },
    { id: "t3", folio: "REC-2026-000003", status: "cancelled", amount: 100, phone_number: NUMBER },
  ];
  const ledger: LineLedger = {
    added: [
      { journey: "customer 4 journey 2 (line)", customer: 4, number: NUMBER, outcome: "told" },
    ],
    installs: [
      {
        journey: "customer 7 journey 3 (checkout)",
        orderRef: "ref-o1",
        position: 0,
        outcome: "told",
      },
    ],
    usage: [
      { number: NUMBER, dataMb: 200, minutes: 12, sms: 0, exitCode: 0 },
      { number: NUMBER, dataMb: 100, minutes: 0, sms: 0, exitCode: 0 },
    ],
  };
  const rows: LineRows = {
    lines: [
      { number: NUMBER, account_sub: "sub-4", source: "added" },
      { number: ESIM_LINE, account_sub: "sub-7", source: "esim" },
    ],
    lineJobs: [
      { id: "topup:t1", kind: "apply-topup", state: "done", result: null },
      { id: "topup:t2", kind: "apply-topup", state: "done", result: null },
      { id: "activation:esim:ref-o1:0", kind: "activate-line", state: "done", result: null },
    ],
    bssSimLines: [
      { number: NUMBER, status: "active", data_total_mb: 1024 + 5120, data_used_mb: 300 },
      { number: ESIM_LINE, status: "active", data_total_mb: 10240, data_used_mb: 0 },
    ],
    bssSimPackages: [
      pkg({ number: NUMBER, position: 0, applied_by: "topup:t1", minutes_used: 12 }),
      pkg({
        number: NUMBER,
        position: 1,
        applied_by: "topup:t2",
        offer_id: "conecta-150",
        starts_at: "2026-12-01T10:00:00.000Z",
        ends_at: "2026-12-31T10:00:00.000Z",
      }),
      pkg({
        number: ESIM_LINE,
        position: 0,
        applied_by: "activation:esim:ref-o1:0",
        offer_id: "conecta-200",
        ends_at: "2026-12-24T10:00:00.000Z",
      }),
    ],
    bssSimTopups: [
      { topup_id: "t1", number: NUMBER, amount: 50, offer_id: "conecta-50" },
      { topup_id: "t2", number: NUMBER, amount: 150, offer_id: "conecta-150" },
    ],
    bssSimUsage: [{ number: NUMBER, day: "2026-11-24", data_mb: 300, minutes: 12, sms: 0 }],
    bssSimActivations: [
      { external_id: "esim:ref-o1:0", number: ESIM_LINE, offer_id: "conecta-200" },
    ],
  };
  return { ledger, rows, topups };
}

const kinds = (run: ReturnType<typeof cleanLines>): LineFindingKind[] =>
  reconcileLines(run)
    .findings.map((finding) => finding.kind)
    .sort();

describe("reconcileLines", () => {
  it("finds nothing wrong when every paid top-up is applied once and every balance adds up", () => {
    const report = reconcileLines(cleanLines());
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.checked).toEqual({
      appliedTopups: 2,
      lines: 2,
      linesWithUsage: 1,
      usageCalls: 2,
      linesAdded: 1,
      installs: 1,
    });
  });

  it("reports a paid top-up the BSS never applied, and one whose job is not done", () => {
    const run = cleanLines();
    run.rows.bssSimTopups = run.rows.bssSimTopups.filter((row) => row.topup_id !== "t2");
    run.rows.bssSimPackages = run.rows.bssSimPackages.filter(
      (row) => row.applied_by !== "topup:t2",
    );
    run.rows.bssSimLines = run.rows.bssSimLines.map((line) =>
      line.number === NUMBER ? { ...line, data_total_mb: 1024 } : line,
    );
    run.rows.lineJobs = run.rows.lineJobs.map((job) =>
      job.id === "topup:t2" ? { ...job, state: "pending" as const } : job,
    );
    expect(kinds(run)).toEqual(["line-job-unfinished", "topup-not-applied"]);
  });

  it("reports a top-up applied twice, or to another number or for another amount", () => {
    const twice = cleanLines();
    twice.rows.bssSimPackages = [
      ...twice.rows.bssSimPackages,
      pkg({
        number: NUMBER,
        position: 2,
        applied_by: "topup:t1",
        starts_at: "2026-12-31T10:00:00.000Z",
        ends_at: "2027-01-07T10:00:00.000Z",
      }),
    ];
    // The second package also shows in the line's grant: 1 GB more than the top-ups paid.
    twice.rows.bssSimLines = twice.rows.bssSimLines.map((line) =>
      line.number === NUMBER ? { ...line, data_total_mb: 1024 * 2 + 5120 } : line,
    );
    expect(kinds(twice)).toEqual(["topup-applied-wrongly"]);

    const elsewhere = cleanLines();
    elsewhere.rows.bssSimTopups = elsewhere.rows.bssSimTopups.map((row) =>
      row.topup_id === "t1" ? { ...row, number: "5500009999" } : row,
    );
    expect(kinds(elsewhere)).toEqual(["topup-applied-wrongly"]);
  });

  it("reports a cancelled or unknown top-up applied at the BSS", () => {
    const run = cleanLines();
    run.rows.bssSimTopups = [
      ...run.rows.bssSimTopups,
      { topup_id: "t3", number: NUMBER, amount: 100, offer_id: "conecta-100" },
      { topup_id: "t-nobody", number: NUMBER, amount: 20, offer_id: "recarga-20" },
    ];
    expect(kinds(run)).toEqual(["applied-unpaid", "applied-unpaid"]);
  });

  it("reports a refused line job", () => {
    const run = cleanLines();
    run.rows.lineJobs = [
      ...run.rows.lineJobs,
      { id: "activation:sim:ref-o2:0", kind: "activate-line", state: "refused", result: null },
    ];
    expect(kinds(run)).toEqual(["line-job-unfinished"]);
  });

  it("reports a line whose data, minutes or vigencia do not follow from its packages and usage", () => {
    const granted = cleanLines();
    granted.rows.bssSimLines = granted.rows.bssSimLines.map((line) =>
      line.number === NUMBER ? { ...line, data_total_mb: 7000 } : line,
    );
    expect(kinds(granted)).toEqual(["balance-mismatch"]);

    const used = cleanLines();
    used.rows.bssSimLines = used.rows.bssSimLines.map((line) =>
      line.number === NUMBER ? { ...line, data_used_mb: 250 } : line,
    );
    expect(kinds(used)).toEqual(["balance-mismatch"]);

    const minutes = cleanLines();
    minutes.rows.bssSimPackages = minutes.rows.bssSimPackages.map((row) =>
      row.applied_by === "topup:t1" ? { ...row, minutes_used: 0 } : row,
    );
    expect(kinds(minutes)).toEqual(["balance-mismatch"]);

    const overlapping = cleanLines();
    overlapping.rows.bssSimPackages = overlapping.rows.bssSimPackages.map((row) =>
      row.applied_by === "topup:t2"
        ? { ...row, starts_at: "2026-11-25T10:00:00.000Z", ends_at: "2026-12-25T10:00:00.000Z" }
        : row,
    );
    expect(kinds(overlapping)).toEqual(["balance-mismatch"]);

    const tooLong = cleanLines();
    tooLong.rows.bssSimPackages = tooLong.rows.bssSimPackages.map((row) =>
      row.applied_by === "topup:t2" ? { ...row, ends_at: "2027-01-31T10:00:00.000Z" } : row,
    );
    expect(kinds(tooLong)).toEqual(["balance-mismatch"]);
  });

  it("notes, without checking its data, a line whose package was bought after the last ended", () => {
    const run = cleanLines();
    run.rows.bssSimPackages = run.rows.bssSimPackages.map((row) =>
      row.applied_by === "topup:t2"
        ? { ...row, starts_at: "2026-12-05T10:00:00.000Z", ends_at: "2027-01-04T10:00:00.000Z" }
        : row,
    );
    run.rows.bssSimLines = run.rows.bssSimLines.map((line) =>
      line.number === NUMBER ? { ...line, data_total_mb: 5120 + 724, data_used_mb: 0 } : line,
    );
    const report = reconcileLines(run);
    expect(report.findings).toEqual([]);
    expect(report.notes).toHaveLength(1);
  });

  it("reports usage recorded where nobody asked for it, or more than asked", () => {
    const unasked = cleanLines();
    unasked.ledger = { ...unasked.ledger, usage: [] };
    expect(kinds(unasked)).toEqual(["usage-mismatch", "usage-mismatch"]);

    const failedCall = cleanLines();
    failedCall.ledger = {
      ...failedCall.ledger,
      usage: failedCall.ledger.usage.map((call, index) =>
        index === 1 ? { ...call, exitCode: 1 } : call,
      ),
    };
    expect(kinds(failedCall)).toEqual(["usage-mismatch"]);
  });

  it("reports a line added with a code that is in no account, or customers sharing an account", () => {
    const missing = cleanLines();
    missing.rows.lines = missing.rows.lines.filter((line) => line.number !== NUMBER);
    expect(kinds(missing)).toEqual(["line-account-mismatch"]);

    const shared = cleanLines();
    shared.ledger = {
      ...shared.ledger,
      added: [
        ...shared.ledger.added,
        { journey: "customer 9 journey 1 (line)", customer: 9, number: ESIM_LINE, outcome: "told" },
      ],
    };
    shared.rows.lines = shared.rows.lines.map((line) => ({ ...line, account_sub: "sub-4" }));
    expect(kinds(shared)).toEqual(["line-account-mismatch"]);
  });

  it("reports an installed eSIM that did not become a line with its plan", () => {
    const noJob = cleanLines();
    noJob.rows.lineJobs = noJob.rows.lineJobs.filter((job) => job.kind !== "activate-line");
    expect(kinds(noJob)).toEqual(["activation-missing"]);

    const noPlan = cleanLines();
    noPlan.rows.bssSimPackages = noPlan.rows.bssSimPackages.filter(
      (row) => row.number !== ESIM_LINE,
    );
    noPlan.rows.bssSimLines = noPlan.rows.bssSimLines.map((line) =>
      line.number === ESIM_LINE ? { ...line, data_total_mb: 0 } : line,
    );
    expect(kinds(noPlan)).toEqual(["activation-missing"]);
  });
});
