import { formatTotal } from "~/catalog/money";
import { escapeControlCharacters } from "~/lib/control-characters";
import { carrierLabel } from "~/portability/display";
import type { AppliedChange, Subject } from "~/audit/status-changes.server";
import type { CsvCell } from "./csv";
import { mexicoCityDate, mexicoCityDateTime } from "~/lib/mexico-city-days";
import type { PortInOutcome } from "~/portability/progress.server";
import type { UsageOutcome } from "./line-usage.server";
import {
  SUMMARY_TABLES,
  type BackupContents,
  type BackupOutcome,
  type RestoreOutcome,
} from "./backup.server";
import type { LineJobRow } from "./line-jobs.server";
import type { LineRow } from "./lines.server";
import type {
  DisputedRegistrationRow,
  RegistrationListState,
  RegistrationRow,
  RekeyOutcome,
  WaitingLineRow,
} from "./registrations.server";
import type { RefusedJobRetried } from "~/line/line-jobs.server";
import {
  HOLDER_KIND_NAMES,
  IDENTIFICATION_TYPE_NAMES,
  LINE_JOB_KIND_NAMES,
  LINE_JOB_STATE_NAMES,
  LINE_SOURCE_NAMES,
  LINE_STATUS_NAMES,
  ORDER_STATUS_NAMES,
  PORTABILITY_STATUS_NAMES,
  REGISTRATION_CHANNEL_NAMES,
  TOPUP_STATUS_NAMES,
  WAITING_REASON_NAMES,
  WAITING_SOURCE_NAMES,
  WAITING_STATE_NAMES,
  statusName,
} from "./labels";
import type { History, OrderRow, PortabilityRow, TopupRow } from "./queries.server";

/** What the operator reads, in Spanish: columns, tables, and what a change did. */

const SIM_NAMES: Record<string, string> = { physical: "Física", esim: "eSIM" };

/** One column of a list: its heading, its CSV value, and its text in the table (if shown there). */
export interface Column<R> {
  header: string;
  csv: (row: R) => CsvCell;
  /** Absent: the column is only in the CSV export (too wide for a terminal). */
  table?: (row: R) => string;
  /** Amounts line up on the right. */
  right?: boolean;
}

const at = (iso: string | null) => (iso ? mexicoCityDateTime(iso) : null);

export const ORDER_COLUMNS: Column<OrderRow>[] = [
  { header: "Folio", csv: (row) => row.folio, table: (row) => row.folio },
  { header: "Fecha", csv: (row) => at(row.createdAt), table: (row) => at(row.createdAt) ?? "" },
  {
    header: "Estado",
    csv: (row) => ORDER_STATUS_NAMES[row.status],
    table: (row) => ORDER_STATUS_NAMES[row.status],
  },
  { header: "Total", csv: (row) => row.total, table: (row) => formatTotal(row.total), right: true },
  {
    header: "SIM",
    csv: (row) => SIM_NAMES[row.simType] ?? row.simType,
    table: (row) => SIM_NAMES[row.simType] ?? row.simType,
  },
  { header: "Cliente", csv: (row) => row.fullName, table: (row) => row.fullName },
  { header: "Teléfono", csv: (row) => row.phoneNumber, table: (row) => row.phoneNumber },
  { header: "Correo", csv: (row) => row.email, table: (row) => row.email },
  {
    header: "Guía",
    csv: (row) => row.trackingNumber,
    table: (row) => [row.carrier, row.trackingNumber].filter(Boolean).join(" "),
  },
  { header: "Paquetería", csv: (row) => row.carrier },
  { header: "Planes", csv: (row) => row.lines },
  { header: "Dirección de envío", csv: (row) => row.address },
  { header: "Pagado el", csv: (row) => at(row.paidAt) },
  { header: "Enviado el", csv: (row) => at(row.shippedAt) },
];

export const TOPUP_COLUMNS: Column<TopupRow>[] = [
  { header: "Folio", csv: (row) => row.folio, table: (row) => row.folio },
  { header: "Fecha", csv: (row) => at(row.createdAt), table: (row) => at(row.createdAt) ?? "" },
  {
    header: "Estado",
    csv: (row) => TOPUP_STATUS_NAMES[row.status],
    table: (row) => TOPUP_STATUS_NAMES[row.status],
  },
  {
    header: "Monto",
    csv: (row) => row.amount,
    table: (row) => formatTotal(row.amount),
    right: true,
  },
  { header: "Número", csv: (row) => row.phoneNumber, table: (row) => row.phoneNumber },
  { header: "Correo", csv: (row) => row.email, table: (row) => row.email ?? "" },
  { header: "Pagada el", csv: (row) => at(row.paidAt) },
  { header: "En la línea", csv: topupLineState, table: topupLineState },
];

/** Whether a paid top-up reached its line; a refusal with the BSS's reason, for the operator. */
function topupLineState(row: TopupRow): string {
  const job = row.lineJob;
  if (!job) return "—";
  switch (job.state) {
    case "done":
      return "Aplicada";
    case "refused":
      return `Rechazada por el BSS: ${(job.error ?? "sin motivo").replace(/^refused: /, "")}`;
    default:
      return job.attempts === 0
        ? "En cola"
        : `En cola (${job.attempts} intentos, ${job.error ?? ""})`;
  }
}

const carrierName = (id: string) => carrierLabel(id, "Otra");

export const PORTABILITY_COLUMNS: Column<PortabilityRow>[] = [
  { header: "Folio", csv: (row) => row.folio, table: (row) => row.folio },
  { header: "Fecha", csv: (row) => at(row.createdAt), table: (row) => at(row.createdAt) ?? "" },
  {
    header: "Estado",
    csv: (row) => PORTABILITY_STATUS_NAMES[row.status],
    table: (row) => PORTABILITY_STATUS_NAMES[row.status],
  },
  { header: "Número", csv: (row) => row.phoneNumber, table: (row) => row.phoneNumber },
  { header: "Cliente", csv: (row) => row.fullName, table: (row) => row.fullName },
  { header: "Correo", csv: (row) => row.email, table: (row) => row.email },
  {
    header: "Compañía actual",
    csv: (row) => carrierName(row.currentCarrier),
    table: (row) => carrierName(row.currentCarrier),
  },
  {
    header: "Programada para",
    csv: (row) => row.scheduledFor,
    table: (row) => row.scheduledFor ?? "",
  },
  {
    header: "Motivo de rechazo",
    csv: (row) => row.rejectionReason,
    table: (row) => row.rejectionReason ?? "",
  },
  { header: "ICCID", csv: (row) => row.iccid },
  { header: "Actualizada el", csv: (row) => at(row.updatedAt) },
  { header: "Pedido", csv: (row) => row.orderFolio ?? null },
];

const lineStatus = (row: LineRow) =>
  row.bss === null
    ? "Sin respuesta del BSS"
    : row.bss === "unknown"
      ? "El BSS no la conoce"
      : LINE_STATUS_NAMES[row.bss.status];

const known = (row: LineRow) => (row.bss === null || row.bss === "unknown" ? null : row.bss);

const megabytes = (value: number) => `${value.toLocaleString("es-MX")} MB`;

function dataLeft(row: LineRow): string | null {
  const bss = known(row);
  if (!bss || bss.dataLeftMb === null || bss.dataTotalMb === null) return null;
  return `${megabytes(bss.dataLeftMb)} de ${megabytes(bss.dataTotalMb)}`;
}

const origin = (row: LineRow) =>
  [LINE_SOURCE_NAMES[row.source], row.folio].filter(Boolean).join(" ");

export const LINE_COLUMNS: Column<LineRow>[] = [
  { header: "Número", csv: (row) => row.number, table: (row) => row.number },
  { header: "Estado", csv: lineStatus, table: lineStatus },
  {
    header: "Paquete",
    csv: (row) => known(row)?.packageName,
    table: (row) => known(row)?.packageName ?? "",
  },
  {
    header: "Vigencia hasta",
    csv: (row) => at(known(row)?.endsAt ?? null),
    table: (row) => {
      const endsAt = known(row)?.endsAt;
      return endsAt ? mexicoCityDate(endsAt) : "";
    },
  },
  { header: "Datos restantes", csv: dataLeft, table: (row) => dataLeft(row) ?? "" },
  { header: "Origen", csv: origin, table: origin },
  {
    header: "Cuenta",
    csv: (row) => row.accountSub,
    table: (row) => (row.accountSub ? "Sí" : "Sin cuenta"),
  },
  { header: "Desde", csv: (row) => at(row.linkedAt), table: (row) => at(row.linkedAt) ?? "" },
];

/** "refused: unknown-number 404" → "unknown-number 404": what the BSS said, for the operator. */
const bssWord = (error: string | null) => (error ?? "").replace(/^refused: /, "");

export const LINE_JOB_COLUMNS: Column<LineJobRow>[] = [
  { header: "Referencia", csv: (row) => row.ref, table: (row) => row.ref },
  {
    header: "Trabajo",
    csv: (row) => LINE_JOB_KIND_NAMES[row.kind],
    table: (row) => LINE_JOB_KIND_NAMES[row.kind],
  },
  { header: "Folio", csv: (row) => row.folio, table: (row) => row.folio ?? "" },
  {
    header: "Estado",
    csv: (row) => LINE_JOB_STATE_NAMES[row.state],
    table: (row) => LINE_JOB_STATE_NAMES[row.state],
  },
  {
    header: "Intentos",
    csv: (row) => row.attempts,
    table: (row) => String(row.attempts),
    right: true,
  },
  {
    header: "Último error",
    csv: (row) => bssWord(row.lastError),
    table: (row) => bssWord(row.lastError),
  },
  { header: "Creado", csv: (row) => at(row.createdAt), table: (row) => at(row.createdAt) ?? "" },
  { header: "Terminado", csv: (row) => at(row.doneAt) },
];

const identification = (row: RegistrationRow) =>
  (IDENTIFICATION_TYPE_NAMES as Record<string, string>)[row.identificationType] ??
  row.identificationType;

/** A foreigner without a CURP is kept as "nationality:passport": "X1234567 (US)". */
function wholeHolderKey(row: RegistrationRow): string {
  if (row.holderKey === null) return row.holderKeyMasked;
  const passport = /^([A-Z]{2}):(.+)$/.exec(row.holderKey);
  return passport ? `${passport[2]} (${passport[1]})` : row.holderKey;
}

/** The table shows the CURP, RFC or passport masked; only the CSV has it whole. */
export const REGISTRATION_COLUMNS: Column<RegistrationRow>[] = [
  { header: "Folio", csv: (row) => row.folio, table: (row) => row.folio },
  { header: "Número", csv: (row) => row.number, table: (row) => row.number },
  {
    header: "Titular",
    csv: (row) => HOLDER_KIND_NAMES[row.holderKind],
    table: (row) => HOLDER_KIND_NAMES[row.holderKind],
  },
  { header: "Nombre", csv: (row) => row.holderName, table: (row) => row.holderName },
  { header: "CURP/RFC", csv: wholeHolderKey, table: (row) => row.holderKeyMasked },
  { header: "Identificación", csv: identification, table: identification },
  {
    header: "Validación",
    csv: (row) => row.validation.source,
    table: (row) => row.validation.source,
  },
  { header: "Referencia de la validación", csv: (row) => row.validation.reference },
  {
    header: "Canal",
    csv: (row) => REGISTRATION_CHANNEL_NAMES[row.channel],
    table: (row) => REGISTRATION_CHANNEL_NAMES[row.channel],
  },
  {
    header: "Registrada el",
    csv: (row) => at(row.registeredAt),
    table: (row) => at(row.registeredAt) ?? "",
  },
  { header: "Cuenta", csv: (row) => row.accountSub },
];

/** `registros --estado disputada`: the registration, and when its notice's recipient disputed it. */
export const DISPUTED_REGISTRATION_COLUMNS: Column<DisputedRegistrationRow>[] = [
  ...(REGISTRATION_COLUMNS as Column<DisputedRegistrationRow>[]),
  {
    header: "«No fui yo» el",
    csv: (row) => at(row.disputedAt),
    table: (row) => at(row.disputedAt) ?? "",
  },
];

/** `registros --estado pendiente|suspendida`: the line, since when, and why (no holder data). */
export const WAITING_LINE_COLUMNS: Column<WaitingLineRow>[] = [
  { header: "Número", csv: (row) => row.number, table: (row) => row.number },
  {
    header: "Estado",
    csv: (row) => WAITING_STATE_NAMES[row.state],
    table: (row) => WAITING_STATE_NAMES[row.state],
  },
  {
    header: "Origen",
    csv: (row) => WAITING_SOURCE_NAMES[row.source],
    table: (row) => WAITING_SOURCE_NAMES[row.source],
  },
  { header: "Motivo", csv: waitingReason, table: waitingReason },
  {
    header: "Intentos",
    csv: (row) => row.attempts,
    table: (row) => String(row.attempts),
    right: true,
  },
  { header: "Activada el", csv: (row) => at(row.since), table: (row) => at(row.since) ?? "" },
  {
    header: "Próximo intento",
    csv: (row) => at(row.nextAttemptAt),
    table: (row) => at(row.nextAttemptAt) ?? "",
  },
];

function waitingReason(row: WaitingLineRow): string {
  if (row.reason === null) return "";
  return WAITING_REASON_NAMES[row.reason] ?? row.reason;
}

/** The count of each state, after the list (`registros`). */
export function registrationCountsText(counts: Record<RegistrationListState, number>): string {
  const named = (count: number, one: string, many: string) =>
    `${count} ${count === 1 ? one : many}`;
  return `Por estado: ${named(counts.registered, "registrada", "registradas")}, ${named(counts.pending, "pendiente", "pendientes")}, ${named(counts.suspended, "suspendida", "suspendidas")}.\n`;
}

/** What `reintentar` did. */
export function lineJobRetryText(retried: RefusedJobRetried): string {
  const lines = [
    `Trabajo ${retried.ref} (${LINE_JOB_KIND_NAMES[retried.kind].toLowerCase()}): ${LINE_JOB_STATE_NAMES.refused} → ${LINE_JOB_STATE_NAMES.pending}.`,
    ...(retried.refusal ? [`El BSS lo había rechazado: ${bssWord(retried.refusal)}.`] : []),
    ...(retried.reason ? [`Motivo: ${retried.reason}`] : []),
    `Registrado en el historial por ${retried.actor} el ${mexicoCityDateTime(retried.changedAt)}.`,
    "El servidor en marcha lo intenta de nuevo en unos segundos (npm run ops -- trabajos muestra cómo va).",
  ];
  return lines.map((line) => `${line}\n`).join("");
}

/** The heading and records of a CSV export: every column. */
export function csvRecords<R>(
  columns: readonly Column<R>[],
  rows: readonly R[],
): { headers: string[]; records: CsvCell[][] } {
  return {
    headers: columns.map((column) => column.header),
    records: rows.map((row) => columns.map((column) => column.csv(row))),
  };
}

/** Longer cells are cut with "…" in the table (the CSV has them whole). */
const MAX_CELL = 40;

const width = (text: string) => [...text].length;

/**
 * One line of plain text: control and bidi characters are shown as escapes ("\u001B"), so that a
 * customer's text cannot recolour the operator's terminal, move its cursor, break the row or
 * reorder what it shows; other whitespace runs become one space.
 */
function cut(text: string): string {
  const flat = escapeControlCharacters(text).replace(/\s+/g, " ");
  const chars = [...flat];
  return chars.length > MAX_CELL ? `${chars.slice(0, MAX_CELL - 1).join("")}…` : flat;
}

function pad(text: string, size: number, right: boolean): string {
  const fill = " ".repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
}

/** Aligned columns separated by two spaces, with a rule under the heading. */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[] = [],
): string {
  const cells = rows.map((row) => row.map(cut));
  const sizes = headers.map((header, index) =>
    Math.max(width(header), ...cells.map((row) => width(row[index] ?? ""))),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => pad(cell, sizes[index], right[index] ?? false))
      .join("  ")
      .trimEnd();
  return [line(headers), sizes.map((size) => "-".repeat(size)).join("  "), ...cells.map(line)]
    .map((text) => `${text}\n`)
    .join("");
}

/** The table of a list: only the columns meant for a terminal. */
export function listTable<R>(columns: readonly Column<R>[], rows: readonly R[]): string {
  const shown = columns.filter((column) => column.table);
  return renderTable(
    shown.map((column) => column.header),
    rows.map((row) => shown.map((column) => column.table?.(row) ?? "")),
    shown.map((column) => column.right ?? false),
  );
}

const SUBJECT_NAMES: Record<Subject, string> = {
  order: "pedido",
  topup: "recarga",
  portability: "solicitud de portabilidad",
  line_job: "trabajo del BSS",
  invoice: "factura",
};

function describeDetail(detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  const parts: string[] = [];
  if (typeof detail.carrier === "string") parts.push(detail.carrier);
  if (typeof detail.trackingNumber === "string") parts.push(`guía ${detail.trackingNumber}`);
  if (typeof detail.scheduledFor === "string") parts.push(`para el ${detail.scheduledFor}`);
  if (typeof detail.iccid === "string") parts.push(`ICCID ${detail.iccid}`);
  if (typeof detail.iccids === "string") {
    const iccids = detail.iccids.split(",");
    parts.push(`${iccids.length === 1 ? "ICCID" : "ICCID en orden"} ${iccids.join(", ")}`);
  }
  return parts.join(", ");
}

/** `historial <folio>`: where the record stands, then each change the operator made. */
export function historyText(history: History): string {
  const heading =
    `${history.folio} (${SUBJECT_NAMES[history.subject]} del ${mexicoCityDateTime(history.createdAt)}): ` +
    `${statusName(history.subject, history.status)}\n`;
  if (history.changes.length === 0) {
    return `${heading}Sin cambios hechos con npm run ops.\n`;
  }
  return (
    heading +
    "\n" +
    renderTable(
      ["Fecha", "Cambio", "Detalle", "Motivo", "Quién"],
      history.changes.map((change) => [
        mexicoCityDateTime(change.createdAt),
        `${statusName(history.subject, change.fromStatus)} → ${statusName(history.subject, change.toStatus)}`,
        describeDetail(change.detail),
        change.reason ?? "",
        change.actor,
      ]),
    )
  );
}

/** What the operator is told after a change: what changed, the audit row, the queued e-mail. */
export function changeText(change: AppliedChange): string {
  // ICCIDs recorded after the fact (an order shipped, a port completed without them): the
  // customer has nothing new to be told.
  const iccidsOnly = change.fromStatus === change.toStatus && change.toStatus !== "in_progress";
  const what =
    change.subject === "order"
      ? iccidsOnly
        ? `Pedido ${change.folio}: SIM registradas (${describeDetail(change.detail)}); ya se pueden activar en /activar.`
        : `Pedido ${change.folio} marcado como enviado (${describeDetail(change.detail)}).`
      : iccidsOnly
        ? `Solicitud ${change.folio}: ${describeDetail(change.detail)} registrado.`
        : change.toStatus === "in_progress"
          ? `Solicitud ${change.folio} programada ${describeDetail(change.detail)}` +
            (change.fromStatus === "in_progress" ? " (reprogramada)." : ".")
          : `Solicitud ${change.folio}: ${statusName("portability", change.fromStatus)} → ${statusName("portability", change.toStatus)}.`;
  const lines = [
    what,
    ...(change.reason ? [`Motivo: ${change.reason}`] : []),
    `Registrado en el historial por ${change.actor} el ${mexicoCityDateTime(change.changedAt)}.`,
    ...(iccidsOnly
      ? []
      : [
          change.mailQueued
            ? `Correo al cliente (${change.email}) en cola: lo envía el servidor en marcha.`
            : `El correo de este aviso ya estaba en cola; no se duplicó.`,
        ]),
  ];
  return lines.map((line) => `${line}\n`).join("");
}

function allowanceLeft(
  name: string,
  quota: { remaining: number; total: number } | "unlimited" | null,
  unit = "",
): string {
  if (quota === null) return `${name}: no incluye`;
  if (quota === "unlimited") return `${name}: ilimitados`;
  return `${name}: ${quota.remaining.toLocaleString("es-MX")}${unit} de ${quota.total.toLocaleString("es-MX")}${unit}`;
}

/** `consumo`: what was recorded, what the network let through, and what the line has left. */
export function usageText(outcome: Extract<UsageOutcome, { ok: true }>): string {
  const { asked, consumed, line } = outcome;
  const parts = [
    ...(asked.dataMb > 0 ? [`${megabytes(consumed.dataMb)} de datos`] : []),
    ...(asked.minutes > 0 ? [`${consumed.minutes} minutos`] : []),
    ...(asked.sms > 0 ? [`${consumed.sms} SMS`] : []),
  ];
  const lines = [
    `Consumo registrado en la línea ${outcome.number} (${outcome.day}): ${parts.join(", ")}.`,
  ];
  if (
    consumed.dataMb < asked.dataMb ||
    consumed.minutes < asked.minutes ||
    consumed.sms < asked.sms
  ) {
    lines.push(
      "La red dejó pasar menos de lo pedido: la línea no tenía más en su paquete (o llegó al uso justo).",
    );
  }
  if (line?.package) {
    const { balances } = line;
    lines.push(
      `Le queda: ${[
        balances.dataMb
          ? `datos: ${megabytes(balances.dataMb.remaining)} de ${megabytes(balances.dataMb.total)}`
          : "datos: no incluye",
        allowanceLeft("minutos", balances.minutes),
        allowanceLeft("SMS", balances.sms),
      ].join("; ")}. Vigencia hasta el ${mexicoCityDate(line.package.endsAt)}.`,
    );
  } else if (line) {
    lines.push("La línea no tiene un paquete vigente.");
  }
  return lines.map((text) => `${text}\n`).join("");
}

/** `completar`: what became of the ported number's line. */
export function portInText(portIn: PortInOutcome): string {
  switch (portIn.kind) {
    case "queued":
      return (
        `Activación de la línea portada en cola (SIM ${portIn.iccid}${portIn.accountSub ? ", para la cuenta del cliente" : ", sin cuenta"}): ` +
        "la hace el servidor en marcha con el BSS.\n"
      );
    case "no-iccid":
      return (
        "Sin ICCID: la línea portada no se activó en el BSS. Cuando sepas a qué SIM se portó: " +
        "npm run ops -- completar <folio> --iccid <ICCID>\n"
      );
    case "unknown-sim":
      return (
        `El ICCID ${portIn.iccid} no es de una SIM vendida por la tienda: la línea portada no se ` +
        "activó (no hay plan con qué iniciarla); actívala en el BSS.\n"
      );
  }
}

/** What `recifrar-registros` did, for the operator. */
export function rekeyText(outcome: RekeyOutcome): string {
  const registros = (count: number) => `${count} ${count === 1 ? "registro" : "registros"}`;
  const lines = [
    `Recifrados con el secreto más reciente de SESSION_SECRET: ${registros(outcome.rewritten)} (de ${outcome.total}).`,
    `Titulares de pedidos que esperan la activación de sus líneas, recifrados: ${outcome.waitingHolders}.`,
  ];
  if (outcome.unreadable > 0) {
    lines.push(
      `${registros(outcome.unreadable)} no se ${outcome.unreadable === 1 ? "puede" : "pueden"} abrir con ningún secreto de SESSION_SECRET: vuelve a poner el secreto retirado (después del nuevo) y ejecuta de nuevo. No quites ningún secreto hasta que este número sea 0.`,
    );
  } else {
    lines.push(
      "Ningún registro depende ya de un secreto anterior (los NIP de portabilidad sí, durante 5 días: README, Seguridad).",
    );
  }
  return lines.map((line) => `${line}\n`).join("");
}

const count = new Intl.NumberFormat("es-MX");

/** The main tables' rows (`12 pedidos, 30 pagos…`), then how many tables and rows in all. */
function contentsText(contents: BackupContents): string {
  const counted = SUMMARY_TABLES.filter(([table]) => table in contents.rowsByTable).map(
    ([table, one, many]) => {
      const rows = contents.rowsByTable[table]!;
      return `${count.format(rows)} ${rows === 1 ? one : many}`;
    },
  );
  const tables = Object.keys(contents.rowsByTable).length;
  const rows = Object.values(contents.rowsByTable).reduce((sum, each) => sum + each, 0);
  return `${counted.join(", ")} (${count.format(tables)} tablas, ${count.format(rows)} filas en total)`;
}

function schemaText(contents: BackupContents): string {
  const last = contents.migrations.at(-1);
  return `${contents.migrations.length} migraciones${last ? `, la última ${last}` : ""}`;
}

const ENGINE_NAMES = { sqlite: "SQLite", postgres: "PostgreSQL" } as const;

/** What `respaldo` wrote, and what the operator must keep beside it. */
export function backupText(outcome: Extract<BackupOutcome, { ok: true }>): string {
  const megabytes = (outcome.bytes / 1_048_576).toLocaleString("es-MX", {
    maximumFractionDigits: 1,
  });
  const lines = [
    `Respaldo escrito en ${outcome.file} (${megabytes} MB, ${ENGINE_NAMES[outcome.contents.engine]}, ${schemaText(outcome.contents)}).`,
    `Contiene: ${contentsText(outcome.contents)}.`,
  ];
  if (outcome.outsideBackup.length > 0) {
    lines.push(
      `No van en este archivo (cópialos aparte de DATA_DIR): ${outcome.outsideBackup.join(", ")}.`,
    );
  }
  lines.push(
    "Guarda también SESSION_SECRET (o DATA_DIR/session-secret): sin él no se leen los NIP ni los registros de titular del respaldo.",
  );
  return lines.map((line) => `${line}\n`).join("");
}

/** What `restaurar` put back, and how to start the server on it. */
export function restoreText(outcome: Extract<RestoreOutcome, { ok: true }>): string {
  const engine = ENGINE_NAMES[outcome.contents.engine];
  return [
    `Restaurado en ${outcome.restoredInto} (${engine}) desde ${outcome.file}: ${contentsText(outcome.contents)}; ${schemaText(outcome.contents)}.`,
    "Arranca el servidor con esta configuración y el mismo SESSION_SECRET que tenía al hacer el respaldo; aplica al arrancar las migraciones que falten.",
  ]
    .map((line) => `${line}\n`)
    .join("");
}
