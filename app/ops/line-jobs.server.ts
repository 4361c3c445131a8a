import type { Db } from "~/db/db.server";
import type { LineJobKind, LineJobState } from "~/db/schema";
import { lineJobLogRef } from "~/line/line-jobs.server";

/**
 * `npm run ops -- trabajos [--estado …] [--csv …]`: the work queued for the BSS (top-ups to
 * apply, lines to activate), each by its reference (the digest its log lines carry: the job's
 * id holds a receipt's or an order's secret key) and the folio it came from. Without --estado,
 * what is not done: waiting in the queue, or refused by the BSS for the operator
 * (`reintentar <ref>`). Newest first.
 */
export interface LineJobRow {
  ref: string;
  kind: LineJobKind;
  /** The top-up's, order's, portability request's or registration's folio, when there is one. */
  folio: string | null;
  state: LineJobState;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  doneAt: string | null;
}

/** "topup:<id>", "activation:esim:<order>:<n>", "activation:sim:…", "activation:portability:<id>". */
function sourceOf(
  id: string,
): { table: "topups" | "orders" | "portability_requests"; id: string } | null {
  const [kind, ...rest] = id.split(":");
  if (kind === "topup" && rest.length === 1) return { table: "topups", id: rest[0]! };
  if (kind !== "activation") return null;
  const [source, recordId] = rest;
  if (!recordId) return null;
  if (source === "esim" || source === "sim") return { table: "orders", id: recordId };
  if (source === "portability") return { table: "portability_requests", id: recordId };
  return null;
}

/** "registration:<number>:VIN-2026-000123" → its folio; "…:none:<instant>" (no registration) → null. */
function registrationFolioOf(id: string): string | null {
  const [kind, , folio] = id.split(":");
  return kind === "registration" && folio && folio !== "none" ? folio : null;
}

export async function listLineJobs(
  db: Db,
  filter: { state?: LineJobState } = {},
): Promise<LineJobRow[]> {
  const states: LineJobState[] = filter.state ? [filter.state] : ["pending", "refused"];
  const jobs = await db
    .selectFrom("line_jobs")
    .select(["id", "kind", "state", "attempts", "last_error", "created_at", "done_at"])
    .where("state", "in", states)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  const sources = jobs.map((job) => sourceOf(job.id));
  const folios = new Map<string, string>();
  for (const table of ["topups", "orders", "portability_requests"] as const) {
    const ids = [
      ...new Set(sources.filter((source) => source?.table === table).map((source) => source!.id)),
    ];
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom(table)
      .select(["id", "folio"])
      .where("id", "in", ids)
      .execute();
    for (const row of rows) folios.set(`${table}:${row.id}`, row.folio);
  }
  return jobs.map((job, index) => {
    const source = sources[index];
    return {
      ref: lineJobLogRef(job.id),
      kind: job.kind,
      folio: source
        ? (folios.get(`${source.table}:${source.id}`) ?? null)
        : registrationFolioOf(job.id),
      state: job.state,
      attempts: Number(job.attempts),
      lastError: job.last_error,
      createdAt: job.created_at,
      doneAt: job.done_at,
    };
  });
}
