// The soak's summary: one Markdown text, printed as it is (its tables are padded to read well in
// a terminal) and written between markers into docs/reliability.md, as bench does for
// docs/performance.md.
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { JOURNEY_KINDS } from "./journeys.mjs";
import { percentile } from "./recorder.mjs";

export const START_MARKER = "<!-- soak:start -->";
export const END_MARKER = "<!-- soak:end -->";
const MAX_LISTED = 10;

const ms = (value) => `${value.toFixed(0)}`;

const PAYMENT_METHODS = ["card", "cash", "spei"];
const PAYMENT_STATUSES = ["approved", "pending", "expired", "replaced", "declined"];

/**
 * Per payment method: what customers were told (orders and top-ups that reached a result, then
 * paid, expired or left unpaid) and how the stored payments ended.
 */
function paymentMethodRows(ledger, paymentsByMethod) {
  const methods = [...new Set([...PAYMENT_METHODS, ...Object.keys(paymentsByMethod)])];
  return methods.map((method) => {
    const orders = ledger.orders.filter((e) => e.method === method && e.outcome === "told");
    const topups = ledger.topups.filter((e) => e.method === method && e.outcome === "told");
    const told = [...orders, ...topups];
    const stored = paymentsByMethod[method] ?? {};
    return [
      method,
      orders.length,
      topups.length,
      told.filter((entry) => entry.providerConfirmedPaid).length,
      told.filter((entry) => entry.providerConfirmedExpired).length,
      told.filter((entry) => entry.voucherOutcome === "unpaid").length,
      ...PAYMENT_STATUSES.map((status) => stored[status] ?? 0),
    ];
  });
}

/** A Markdown table with padded columns; `right` lists the columns aligned right (numbers). */
function table(headers, rows, right = []) {
  const cells = [headers, ...rows].map((row) => row.map(String));
  const widths = headers.map((_, column) => Math.max(3, ...cells.map((row) => row[column].length)));
  const line = (row) =>
    `| ${row
      .map((cell, column) =>
        right.includes(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
      )
      .join(" | ")} |`;
  const rule = `| ${widths
    .map((width, column) =>
      right.includes(column) ? `${"-".repeat(width - 1)}:` : "-".repeat(width),
    )
    .join(" | ")} |`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join("\n");
}

const statusList = (statuses) =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`)
    .join(", ");

export function machineDescription() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** The summary, and whether the run passed (see `passed` for what it takes). */
export function buildReport({
  settings,
  loadAverageBefore,
  recorder,
  elapsedSeconds,
  reconciliation,
  server,
  customersCpuSeconds,
  identityStore,
  lineJobs,
}) {
  const { findings, notes, checked } = reconciliation;
  const journeyRows = JOURNEY_KINDS.map((kind) => {
    const entry = recorder.journeys.get(kind) ?? {
      started: 0,
      completed: 0,
      failed: 0,
      aborted: 0,
    };
    return [kind, entry.started, entry.completed, entry.failed, entry.aborted];
  });
  const totals = journeyRows.reduce(
    (sum, row) => sum.map((value, index) => (index === 0 ? value : value + row[index])),
    ["all", 0, 0, 0, 0],
  );
  const routeRows = [...recorder.routes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, entry]) => {
      const clientErrors = [...entry.statuses].filter(([status]) => status >= 400 && status < 500);
      const serverErrors = [...entry.statuses].filter(([status]) => status >= 500);
      return [
        route,
        entry.requests,
        ms(percentile(entry.latencies, 0.5)),
        ms(percentile(entry.latencies, 0.99)),
        clientErrors.length ? statusList(clientErrors) : "0",
        serverErrors.reduce((sum, [, count]) => sum + count, 0),
      ];
    });
  // The 429s /registro-de-linea owes once three validations of a number failed are not load.
  const expectedTooMany = recorder.expectedTooManyRequests;
  const tooManyRequests = (recorder.statusCounts.get(429) ?? 0) - expectedTooMany;
  const findingCounts = new Map();
  for (const finding of findings) {
    findingCounts.set(finding.kind, (findingCounts.get(finding.kind) ?? 0) + 1);
  }
  const cleanExit = server.exit.code === 0;
  const failedJourneys = totals[3];
  // A request never answered fails a customer as surely as a 5xx; so does a journey the store
  // answered wrongly (an unexpected 4xx, a cart that shows something else), a server that does
  // not stop cleanly, and an identity store that would lose accounts at the next start.
  const passed =
    recorder.serverErrorCount === 0 &&
    recorder.networkErrorCount === 0 &&
    failedJourneys === 0 &&
    findings.length === 0 &&
    recorder.usageFailures.length === 0 &&
    identityStore.ok &&
    cleanExit;

  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machineDescription()}: ` +
      `${settings.clients} customers for ${settings.seconds} s (journeys under way at the end were finished: ${elapsedSeconds.toFixed(1)} s in all), ` +
      `server \`node ${server.args.join(" ")}\`, \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, ` +
      `\`WEB_CONCURRENCY=${settings.workers ?? 1}\`, database ${settings.engine ?? "SQLite"}; ` +
      // The machine may be shared: its load before the run tells how much of it the soak had.
      `load average before the run ${loadAverageBefore.map((load) => load.toFixed(1)).join(" / ")} (1 / 5 / 15 min).`,
    "",
    `**Result: ${passed ? "PASS" : "FAIL"}** — ${recorder.serverErrorCount} responses 5xx, ${recorder.networkErrorCount} requests without an answer, ${failedJourneys} failed journeys, ${findings.length} reconciliation findings; ` +
      `server ${cleanExit ? "stopped by SIGTERM with exit code 0" : `did not stop cleanly: ${JSON.stringify(server.exit)}`}; ` +
      `identity emulator's pool file ${identityStore.detail}.`,
    "",
    table(
      ["Journey", "started", "completed", "failed", "cut off at the end"],
      [...journeyRows, totals],
      [1, 2, 3, 4],
    ),
    "",
    table(
      [
        "Requests",
        "req/s",
        "p50 (ms)",
        "p99 (ms)",
        "5xx",
        "double submissions",
        "server peak RSS (MB)",
        "CPU s: server / customers",
        "server CPU ms per request",
      ],
      [
        [
          recorder.requests,
          (recorder.requests / elapsedSeconds).toFixed(0),
          ms(percentile(recorder.latencies, 0.5)),
          ms(percentile(recorder.latencies, 0.99)),
          recorder.serverErrorCount,
          recorder.doubleSubmissions,
          server.peakRssMb === null ? "—" : server.peakRssMb.toFixed(0),
          `${serverCpuText(server.cpu, settings.workers)} / ${customersCpuSeconds.toFixed(0)}`,
          server.cpu === null ? "—" : ((server.cpu.total * 1000) / recorder.requests).toFixed(1),
        ],
      ],
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
    ),
    "",
    `Status counts: ${statusList(recorder.statusCounts)}.` +
      (tooManyRequests
        ? ` **${tooManyRequests} answers were 429** although the sign-in limits were raised far above this load.`
        : expectedTooMany
          ? ` No other 429 than the ${expectedTooMany} /registro-de-linea owed once a number's online path ended.`
          : " No 429."),
    "",
    table(["Route", "requests", "p50 (ms)", "p99 (ms)", "4xx", "5xx"], routeRows, [1, 2, 3, 5]),
    "",
    "Payment methods — customers' orders and top-ups by the method chosen, what the provider then confirmed to them (paid, voucher or transfer expired) or what they left unpaid; and the payments stored, by status:",
    "",
    table(
      [
        "Method",
        "orders",
        "top-ups",
        "told paid",
        "told expired",
        "left unpaid",
        "payments approved",
        "pending",
        "expired",
        "replaced",
        "declined",
      ],
      paymentMethodRows(recorder.ledger, checked.paymentsByMethod),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ),
    "",
    `Reconciliation (customers' ledger against ${settings.engine === "PostgreSQL" ? "the PostgreSQL database" : "`storefront.sqlite`"} after the server stopped): ` +
      `${checked.toldOrders} orders, ${checked.toldTopups} top-ups and ${checked.toldPortabilityRequests} portability requests told to customers; ` +
      `the database holds ${checked.orders} orders, ${checked.topups} top-ups, ${checked.portabilityRequests} portability requests and ${checked.payments} payments (${checked.approvedPayments} approved). ` +
      (checked.reorders
        ? `${checked.reorders} orders were the same cart bought again after its order was cancelled (a new order under the store's own key). `
        : "") +
      (findings.length
        ? `**${findings.length} findings**: ${[...findingCounts].map(([kind, count]) => `${kind} ${count}`).join(", ")}.`
        : "No finding: every folio told exists exactly once, no row without its customer, every paid order and top-up has exactly one approved payment of its amount whatever the method, no approved payment without its paid order or top-up, every order's total is the sum of its lines; " +
          "every voucher or transfer shown is a payment of that order or top-up and no reference was issued twice, every expired one cancelled what it paid and nothing else was cancelled, nothing a customer was told was cancelled has an approved payment, and the provider's checkouts agree with the store's payments.") +
      (notes.length ? ` ${notes.length} notes (listed below), none of them a failure.` : ""),
    "",
    lineParagraph({ recorder, line: checked.line, lineJobs }),
    "",
    registrationParagraph({ recorder, registration: checked.registration }),
    "",
    autoTopupParagraph(checked.autoTopup),
    "",
    invoicingParagraph(checked.invoicing),
  ];
  const listed = (title, items, format) =>
    items.length
      ? [
          "",
          `${title}${items.length > MAX_LISTED ? ` (first ${MAX_LISTED} of ${items.length})` : ""}:`,
          "",
          ...items.slice(0, MAX_LISTED).map((item) => `- ${format(item)}`),
        ]
      : [];
  lines.push(
    ...listed(
      "Reconciliation findings",
      findings,
      (finding) => `${finding.kind} (${finding.subject}): ${finding.detail}`,
    ),
    ...listed("Notes", notes, (note) => `${note.subject}: ${note.detail}`),
    ...listed("Usage the operator could not record", recorder.usageFailures, (text) => text),
    ...listed(
      "Server errors (5xx)",
      recorder.serverErrors,
      (error) =>
        `${error.method} ${error.path} → ${error.status} (request ${error.requestId ?? "?"})` +
        (error.said ? ` — the page said "${error.said}"` : "") +
        (error.logLine ? `; server log: \`${JSON.stringify(error.logLine)}\`` : ""),
    ),
    ...listed(
      "Requests without an answer",
      recorder.networkErrors,
      (error) => `${error.path}: ${error.error}`,
    ),
    ...listed(
      "Failed journeys",
      recorder.journeyFailures,
      (failure) =>
        `${failure.journey}: ${failure.error}${failure.said ? ` — the page said "${failure.said}"` : ""}${failure.requestId ? ` (request ${failure.requestId})` : ""}`,
    ),
    ...listed("Server warnings and errors logged", server.problemLines, (line) => `\`${line}\``),
  );
  return { text: lines.join("\n"), passed };
}

/** What the run did to lines (issue 26), and what the reconciliation compared of them. */
function lineParagraph({ recorder, line, lineJobs }) {
  const { ledger } = recorder;
  const paidTopups = ledger.topups.filter((told) => told.shownPaid).length;
  const watched = ledger.topups.filter((told) => told.shownApplied).length;
  const usageCalls = ledger.line.usage.length;
  return (
    `Lines: ${line.linesAdded} lines added to accounts with an SMS code, ${line.installs} eSIMs installed, ` +
    `${recorder.lineViews} line pages and ${recorder.balanceViews} /saldo summaries shown; ` +
    `${paidTopups} top-ups shown paid (${watched} receipts watched until "Aplicada a tu línea"), ` +
    `${line.appliedTopups} applied at the BSS simulator on ${line.lines} lines; ` +
    `${usageCalls} \`npm run ops -- consumo\` calls (${usageCalls - recorder.usageFailures.length} recorded) on ${line.linesWithUsage} lines. ` +
    `Line jobs after the run: ${lineJobs ? `${lineJobs.pending} pending, ${lineJobs.refused} refused` : "unknown (/readyz did not answer)"}. ` +
    "The reconciliation checks that every paid top-up was applied exactly once (to its number, for its amount, its job done) and nothing else was, " +
    "that every line's data granted is the sum of its packages by the catalogue and its data, minutes and messages used are the usage recorded (never more than asked), " +
    "that packages bought ahead start when the one before ends, that every line added is in its customer's account alone, and that every eSIM installed became a line with its plan."
  );
}

/** What the automatic top-ups charged (issue 29), and what the reconciliation compared of them. */
function autoTopupParagraph(autoTopup) {
  return (
    `Automatic top-ups: ${autoTopup.told} switched on by customers, ${autoTopup.autoTopups} stored; ` +
    `${autoTopup.charges} charges over ${autoTopup.periods} line periods, ${autoTopup.paidCharges} paid. ` +
    "The reconciliation checks that no line was charged twice for one period (the store's approved payments, and the provider's approved charges under the period's idempotency keys), " +
    "that every top-up the scheduler made is its charge's and a charge is paid exactly when its top-up is, that no automatic top-up was charged more often in a month than its cap, " +
    "and that every one a customer was told is on is stored."
  );
}

/** What the run registered at /registro-de-linea (issue 27), and what the reconciliation compared. */
function registrationParagraph({ recorder, registration }) {
  const refused = recorder.registrationsRefused;
  return (
    `Line registrations: ${recorder.registrationsShown} receipts with a folio shown at /registro-de-linea, ` +
    `${refused["line-limit"]} 11th lines refused at the 10-line limit with the Spanish message, ` +
    `${recorder.registrationValidationsRefused} identity validations refused (a name that is not the CURP's) and ${refused["in-person"]} numbers sent to a store after three; ` +
    `the database holds ${registration.registrations} registrations (${registration.current} current, ${registration.replaced} replaced) of ${registration.holders} holders and ${registration.failedAttempts} failed online validations. ` +
    "The reconciliation checks that no holder has more than 10 current lines and no line two current registrations, that every folio is VIN-YYYY-NNNNNN and on one registration, " +
    "that every replaced registration names a later one of the same number, that no online registration followed three failed validations of its number in the 24 hours before it, " +
    "that every folio shown is a registration of that number to the holder typed, and that nothing refused was stored."
  );
}

/** What the run invoiced at /facturacion (issue 29), and what the reconciliation compared. */
function invoicingParagraph(invoicing) {
  return (
    `Invoices: ${invoicing.invoicesAsked} asked for at /facturacion (one in five sent twice), ${invoicing.invoicesShown} shown with a UUID, ` +
    `${invoicing.invoicesIssued} issued in the database. The reconciliation checks that no payment has two invoices nor a purchase two UUIDs shown, ` +
    "that every UUID shown is that purchase's invoice, that every invoice is of an approved payment for its amount, with its XML and one e-mail, and that no claim was left behind."
  );
}

/** Replaces the "Last run" block of docs/reliability.md (creating the file if needed). */
export function writeLastRun(file, text) {
  let current;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = `# Reliability\n\n## Last run\n\n${START_MARKER}\n${END_MARKER}\n`;
  }
  if (!current.includes(START_MARKER) || !current.includes(END_MARKER)) {
    current = `${current.trimEnd()}\n\n## Last run\n\n${START_MARKER}\n${END_MARKER}\n`;
  }
  const block = `${START_MARKER}\n${text}\n${END_MARKER}`;
  writeFileSync(
    file,
    current.replace(new RegExp(`${START_MARKER}[\\s\\S]*${END_MARKER}`), () => block),
  );
}

/**
 * The server's CPU seconds; clustered, split as primary (the identity emulator, a test double,
 * and the schedulers: it serves no page) + workers (the store's pages and forms).
 */
function serverCpuText(cpu, workers) {
  if (cpu === null) return "—";
  if ((workers ?? 1) <= 1) return cpu.total.toFixed(0);
  return `${cpu.total.toFixed(0)} (primary ${cpu.primary.toFixed(0)} + workers ${cpu.workers.toFixed(0)})`;
}
