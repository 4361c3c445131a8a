import type { Db } from "~/db/db.server";
import type { LineSource } from "~/db/schema";
import { isBssUnavailable, type Bss } from "~/line/bss";
import type { LineStatus } from "~/line/line";

/**
 * `npm run ops -- lineas [--estado …] [--csv …]`: the store's lines — those in an account (table
 * `lines`) and those the store activated without one (a guest's eSIM or SIM: the done
 * activate-line jobs) — each with what the BSS says of it now: its status, package and vigencia.
 * Newest first.
 */
export interface LineRow {
  number: string;
  /** The account it is in (a Cognito `sub`); null: a guest's line, in no account. */
  accountSub: string | null;
  source: LineSource;
  /** The order's or portability request's folio it came from, when there is one. */
  folio: string | null;
  linkedAt: string;
  /** From the BSS; null when it did not answer (or does not know the number). */
  bss:
    | {
        status: LineStatus;
        packageName: string | null;
        endsAt: string | null;
        dataLeftMb: number | null;
        dataTotalMb: number | null;
      }
    | "unknown"
    | null;
}

export interface LineFilter {
  status?: LineStatus;
}

interface StoredLine {
  number: string;
  accountSub: string | null;
  source: LineSource;
  sourceRef: string | null;
  linkedAt: string;
}

const SOURCES: readonly LineSource[] = ["esim", "sim", "portability", "added"];

function parseJson(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Lines activated by the store that are in no account: done activate-line jobs. */
async function activatedWithoutAccount(db: Db, known: Set<string>): Promise<StoredLine[]> {
  const jobs = await db
    .selectFrom("line_jobs")
    .select(["payload", "result", "done_at", "created_at"])
    .where("kind", "=", "activate-line")
    .where("state", "=", "done")
    .execute();
  const lines: StoredLine[] = [];
  for (const job of jobs) {
    const number = parseJson(job.result).number;
    if (typeof number !== "string" || known.has(number)) continue;
    const payload = parseJson(job.payload);
    const source = SOURCES.find((each) => each === payload.source) ?? "sim";
    known.add(number);
    lines.push({
      number,
      accountSub: null,
      source,
      sourceRef: typeof payload.sourceRef === "string" ? payload.sourceRef : null,
      linkedAt: job.done_at ?? job.created_at,
    });
  }
  return lines;
}

/** The folio of what a line came from: an order ("<order id>:<SIM>") or a portability request. */
async function foliosOf(db: Db, lines: readonly StoredLine[]): Promise<Map<string, string>> {
  const orderIds = lines
    .filter((line) => (line.source === "esim" || line.source === "sim") && line.sourceRef)
    .map((line) => (line.sourceRef as string).split(":")[0]);
  const requestIds = lines
    .filter((line) => line.source === "portability" && line.sourceRef)
    .map((line) => line.sourceRef as string);
  const folios = new Map<string, string>();
  if (orderIds.length > 0) {
    const rows = await db
      .selectFrom("orders")
      .select(["id", "folio"])
      .where("id", "in", orderIds)
      .execute();
    for (const row of rows) folios.set(row.id, row.folio);
  }
  if (requestIds.length > 0) {
    const rows = await db
      .selectFrom("portability_requests")
      .select(["id", "folio"])
      .where("id", "in", requestIds)
      .execute();
    for (const row of rows) folios.set(row.id, row.folio);
  }
  return folios;
}

async function fromBss(bss: Bss, number: string): Promise<LineRow["bss"]> {
  try {
    const line = await bss.findLine(number);
    if (!line) return "unknown";
    return {
      status: line.status,
      packageName: line.package?.name ?? null,
      endsAt: line.package?.endsAt ?? null,
      dataLeftMb: line.balances.dataMb?.remaining ?? null,
      dataTotalMb: line.balances.dataMb?.total ?? null,
    };
  } catch (error) {
    if (isBssUnavailable(error)) return null;
    throw error;
  }
}

/**
 * The store's lines with the BSS's word on each. Filtered by status, a line the BSS could not
 * tell about is left out; `unanswered` counts them so that the operator is told.
 */
export async function listLines(
  db: Db,
  bss: Bss,
  filter: LineFilter = {},
): Promise<{ rows: LineRow[]; unanswered: number }> {
  const inAccounts = await db
    .selectFrom("lines")
    .select(["number", "account_sub", "source", "source_ref", "linked_at"])
    .execute();
  const stored: StoredLine[] = inAccounts.map((row) => ({
    number: row.number,
    accountSub: row.account_sub,
    source: row.source,
    sourceRef: row.source_ref,
    linkedAt: row.linked_at,
  }));
  stored.push(...(await activatedWithoutAccount(db, new Set(stored.map((line) => line.number)))));
  stored.sort((a, b) =>
    a.linkedAt === b.linkedAt
      ? a.number.localeCompare(b.number)
      : b.linkedAt.localeCompare(a.linkedAt),
  );
  const folios = await foliosOf(db, stored);
  const rows: LineRow[] = [];
  let unanswered = 0;
  // One at a time: an operator's list, not worth a burst of calls at the operator's BSS.
  for (const line of stored) {
    const said = await fromBss(bss, line.number);
    if (said === null) unanswered += 1;
    if (filter.status && (said === null || said === "unknown" || said.status !== filter.status)) {
      continue;
    }
    rows.push({
      number: line.number,
      accountSub: line.accountSub,
      source: line.source,
      folio: line.sourceRef ? (folios.get(line.sourceRef.split(":")[0]) ?? null) : null,
      linkedAt: line.linkedAt,
      bss: said,
    });
  }
  return { rows, unanswered };
}
