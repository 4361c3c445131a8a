import { formatTotal } from "~/catalog/money";
import type { Db } from "~/db/db.server";
import type { AutoTopupChargeState, AutoTopupState } from "~/db/schema";
import { paidThisMonth, toAutoTopup } from "~/auto-topup/auto-topups.server";
import { autoTopupStats, type AutoTopupStats } from "~/auto-topup/scheduler.server";
import { mexicoCityDateTime } from "~/lib/mexico-city-days";
import { cardExpiry } from "~/payments/saved-cards.server";
import { maskPhoneNumber } from "~/topup/phone";
import type { Column } from "./format";

/**
 * `npm run ops -- recargas-automaticas [--estado activa|detenida|desactivada] [--csv …]`: every
 * automatic top-up (decisions 0120, 0121) with its line and card masked, its rule, its cap, this
 * month's charges, its last charge and the next one due; and, after the table, how the
 * scheduler stands (what /readyz tells too). The most recently changed first.
 */

export interface AutoTopupRow {
  /** "55 •••• 5678". */
  line: string;
  amount: number;
  when: string;
  cap: string;
  /** "Visa •••• 4242 (12/30)", or "Quitada". */
  card: string;
  state: string;
  chargedThisMonth: number;
  lastCharge: string | null;
  nextCharge: string | null;
  checkedAt: string | null;
  updatedAt: string;
}

/** What `--estado` takes. */
export const AUTO_TOPUP_STATE_WORDS: Record<string, AutoTopupState> = {
  activa: "active",
  activas: "active",
  detenida: "stopped",
  detenidas: "stopped",
  desactivada: "off",
  desactivadas: "off",
};

const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  other: "Tarjeta",
};

const CHARGE_STATE_NAMES: Record<AutoTopupChargeState, string> = {
  scheduled: "Programado",
  retrying: "Rechazado, se reintenta",
  paid: "Pagado",
  failed: "Rechazado dos veces",
  awaiting_customer: "Esperando al cliente (3-D Secure)",
  skipped: "No cobrado",
};

const RESULT_NAMES: Record<string, string> = {
  card_declined: "tarjeta rechazada",
  insufficient_funds: "fondos insuficientes",
  payment_failed: "el proveedor no cobró",
  authentication_required: "el banco pidió autenticación",
  test_card_required: "tarjeta no de prueba",
  cap: "tope mensual",
  superseded: "la línea se recargó de otra forma",
  paid_by_customer: "la pagó el cliente desde el enlace",
  unpaid: "el cliente no la pagó",
};

function stateName(state: AutoTopupState, stopReason: string | null, hasCard: boolean): string {
  if (state === "off") return "Desactivada";
  if (state === "stopped") {
    return stopReason === "line_moved"
      ? "Detenida: la línea dejó la cuenta"
      : "Detenida: 2 cobros rechazados";
  }
  return hasCard ? "Activa" : "En pausa: sin tarjeta";
}

function whenName(trigger: string, thresholdMb: number | null): string {
  if (trigger === "expiry") return "Al vencer el paquete";
  const mb = thresholdMb ?? 0;
  return `Menos de ${mb >= 1024 ? `${Math.round((mb / 1024) * 10) / 10} GB` : `${mb} MB`}`;
}

const at = (iso: string | null) => (iso ? mexicoCityDateTime(iso) : null);

export async function listAutoTopups(
  db: Db,
  filter: { state?: AutoTopupState } = {},
  now: Date = new Date(),
): Promise<AutoTopupRow[]> {
  let query = db
    .selectFrom("auto_topups")
    .leftJoin("saved_cards", "saved_cards.id", "auto_topups.saved_card_id")
    .selectAll("auto_topups")
    .select([
      "saved_cards.brand as card_brand",
      "saved_cards.last4 as card_last4",
      "saved_cards.exp_month as card_exp_month",
      "saved_cards.exp_year as card_exp_year",
    ])
    .orderBy("auto_topups.updated_at", "desc")
    .orderBy("auto_topups.id");
  if (filter.state) query = query.where("auto_topups.state", "=", filter.state);
  const rows = await query.execute();
  return Promise.all(
    rows.map(async (row) => {
      const autoTopup = toAutoTopup(row);
      const charges = await db
        .selectFrom("auto_topup_charges")
        .selectAll()
        .where("auto_topup_id", "=", autoTopup.id)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(5)
        .execute();
      const last = charges.find((charge) => charge.state !== "scheduled") ?? null;
      const next = charges.find(
        (charge) => charge.state === "scheduled" || charge.state === "retrying",
      );
      const hasCard = row.card_last4 !== null;
      return {
        line: maskPhoneNumber(autoTopup.number),
        amount: autoTopup.amount,
        when: whenName(autoTopup.trigger, autoTopup.thresholdMb),
        cap: `${autoTopup.monthlyMax} al mes`,
        card: hasCard
          ? `${BRAND_NAMES[row.card_brand ?? "other"] ?? "Tarjeta"} •••• ${row.card_last4} (${cardExpiry(
              {
                expMonth: Number(row.card_exp_month),
                expYear: Number(row.card_exp_year),
              },
            )})`
          : "Quitada",
        state: stateName(autoTopup.state, autoTopup.stopReason, hasCard),
        chargedThisMonth: await paidThisMonth(db, autoTopup.id, now),
        lastCharge: last
          ? [
              at(last.settled_at ?? last.updated_at),
              CHARGE_STATE_NAMES[last.state],
              last.last_result ? `(${RESULT_NAMES[last.last_result] ?? last.last_result})` : "",
            ]
              .filter(Boolean)
              .join(" ")
          : null,
        nextCharge: next ? at(next.due_at) : null,
        checkedAt: autoTopup.checkedAt,
        updatedAt: autoTopup.updatedAt,
      };
    }),
  );
}

export const AUTO_TOPUP_COLUMNS: Column<AutoTopupRow>[] = [
  { header: "Línea", csv: (row) => row.line, table: (row) => row.line },
  {
    header: "Monto",
    csv: (row) => row.amount,
    table: (row) => formatTotal(row.amount),
    right: true,
  },
  { header: "Cuándo", csv: (row) => row.when, table: (row) => row.when },
  { header: "Tope", csv: (row) => row.cap, table: (row) => row.cap },
  { header: "Tarjeta", csv: (row) => row.card, table: (row) => row.card },
  { header: "Estado", csv: (row) => row.state, table: (row) => row.state },
  {
    header: "Cobros del mes",
    csv: (row) => row.chargedThisMonth,
    table: (row) => String(row.chargedThisMonth),
    right: true,
  },
  { header: "Último cobro", csv: (row) => row.lastCharge, table: (row) => row.lastCharge ?? "—" },
  { header: "Próximo cobro", csv: (row) => row.nextCharge, table: (row) => row.nextCharge ?? "—" },
  { header: "Revisada", csv: (row) => at(row.checkedAt), table: (row) => at(row.checkedAt) ?? "—" },
  { header: "Cambiada", csv: (row) => at(row.updatedAt) },
];

/** How the scheduler stands, after the table: what /readyz tells, for the operator. */
export function autoTopupSchedulerText(stats: AutoTopupStats): string {
  const lines = [
    `Programador: ${
      stats.lastCheckedAt
        ? `última revisión de una línea el ${mexicoCityDateTime(stats.lastCheckedAt)}`
        : "aún no ha revisado ninguna línea"
    } (lo corre un solo proceso del servidor, cada AUTO_TOPUP_SWEEP_SECONDS).`,
    `Activas: ${stats.active}. Detenidas: ${stats.stopped}. Esperando al cliente (3-D Secure): ${stats.awaitingCustomer}.`,
    stats.overdue > 0
      ? `Atención: ${stats.overdue} cobro(s) vencido(s) sin hacer; el más antiguo hace ${Math.round(stats.oldestOverdueSeconds / 60)} min. ¿Está en marcha el servidor?`
      : "Ningún cobro vencido sin hacer.",
  ];
  return `${lines.join("\n")}\n`;
}

export async function autoTopupSchedulerStats(db: Db): Promise<AutoTopupStats> {
  return autoTopupStats(db);
}
