import type { Subject } from "~/audit/status-changes.server";
import type { LineJobKind, LineJobState, LineSource } from "~/db/schema";
import type { LineStatus } from "~/line/line";
import type { PendingRegistrationSource, RegistrationChannel } from "~/db/schema";
import type { HolderKind, IdentificationType, PORT_IN_IDENTIFICATION } from "~/registration/holder";
import { PORTABILITY_STATUS_NAMES } from "~/portability/status-names";
import type { OrderListStatus, PortabilityRow, TopupRow } from "./queries.server";
import type { RegistrationListWord } from "./registrations.server";

/** Each status as the operator reads it, in Spanish (and as the --estado option names it). */

export const ORDER_STATUS_NAMES: Record<OrderListStatus, string> = {
  pending_payment: "Pendiente de pago",
  paid: "Pagado",
  cancelled: "Cancelado",
  shipped: "Enviado",
};

export const TOPUP_STATUS_NAMES: Record<TopupRow["status"], string> = {
  pending_payment: "Pendiente de pago",
  paid: "Pagada",
  cancelled: "Cancelada",
};

/** The portability request's, kept with its transitions (app/portability). */
export { PORTABILITY_STATUS_NAMES };

/** A job for the BSS (app/line/line-jobs.server.ts). */
export const LINE_JOB_STATE_NAMES: Record<LineJobState, string> = {
  pending: "En cola",
  done: "Hecho",
  refused: "Rechazado por el BSS",
};

export const LINE_JOB_KIND_NAMES: Record<LineJobKind, string> = {
  "apply-topup": "Aplicar recarga",
  "activate-line": "Activar línea",
  "record-registration": "Informar registro de la línea",
};

/** An invoice's states as the operator reads them (app/invoicing). */
export const INVOICE_STATE_NAMES: Record<string, string> = {
  stamping: "Timbrando",
  waiting: "Sin emitir",
  issued: "Vigente",
  cancelling: "Cancelación en proceso",
  cancelled: "Cancelada",
};

const STATUS_NAMES: Record<Subject, Record<string, string>> = {
  order: ORDER_STATUS_NAMES,
  topup: TOPUP_STATUS_NAMES,
  portability: PORTABILITY_STATUS_NAMES,
  line_job: LINE_JOB_STATE_NAMES,
  invoice: INVOICE_STATE_NAMES,
};

/** A status as the operator reads it; an unknown one as stored. */
export function statusName(subject: Subject, status: string | null): string {
  if (status === null) return "—";
  return STATUS_NAMES[subject][status] ?? status;
}

/** The words of `--estado`, per list (either gender, as the operator may type them). */
export const ORDER_STATUS_WORDS: Record<string, OrderListStatus> = {
  pendiente: "pending_payment",
  pagado: "paid",
  cancelado: "cancelled",
  enviado: "shipped",
};

export const TOPUP_STATUS_WORDS: Record<string, TopupRow["status"]> = {
  pendiente: "pending_payment",
  pagada: "paid",
  pagado: "paid",
  cancelada: "cancelled",
  cancelado: "cancelled",
};

export const PORTABILITY_STATUS_WORDS: Record<string, PortabilityRow["status"]> = {
  recibida: "received",
  programada: "in_progress",
  completada: "completed",
  rechazada: "rejected",
};

/** The words of `--sim`. */
export const SIM_TYPE_WORDS: Record<string, "physical" | "esim"> = {
  fisica: "physical",
  física: "physical",
  esim: "esim",
};

/** A line's status as the BSS tells it (`lineas`). */
export const LINE_STATUS_NAMES: Record<LineStatus, string> = {
  active: "Activa",
  suspended: "Suspendida",
  unregistered: "Suspendida: sin registro",
  porting: "Portando",
  terminated: "Dada de baja",
};

/** The words of `lineas --estado`. */
export const LINE_STATUS_WORDS: Record<string, LineStatus> = {
  activa: "active",
  suspendida: "suspended",
  "sin-registro": "unregistered",
  portando: "porting",
  baja: "terminated",
};

/** How a line came to the store. */
export const LINE_SOURCE_NAMES: Record<LineSource, string> = {
  esim: "eSIM",
  sim: "SIM física",
  portability: "Portabilidad",
  added: "Agregada con código SMS",
};

export const LINE_JOB_STATE_WORDS: Record<string, LineJobState> = {
  "en-cola": "pending",
  pendiente: "pending",
  rechazado: "refused",
  rechazada: "refused",
  hecho: "done",
  hecha: "done",
};

/** Who holds a registered line (`registros`). */
export const HOLDER_KIND_NAMES: Record<HolderKind, string> = {
  fisica: "Persona física",
  extranjera: "Persona extranjera",
  moral: "Persona moral",
};

/** The identification the holder presented. */
export const IDENTIFICATION_TYPE_NAMES: Record<
  IdentificationType | typeof PORT_IN_IDENTIFICATION,
  string
> = {
  ine: "INE",
  pasaporte: "Pasaporte",
  curp_biometrica: "CURP biométrica",
  // A port-in: requested online with the CURP, no document seen (decision 0101).
  curp: "CURP (portabilidad)",
};

/** A line waiting for its registration, or left without one (`registros --estado …`). */
export const WAITING_STATE_NAMES: Record<"pending" | "suspended", string> = {
  pending: "Pendiente",
  suspended: "Suspendida",
};

/** Where the line waiting for its registration came from. */
export const WAITING_SOURCE_NAMES: Record<PendingRegistrationSource, string> = {
  order: "Compra",
  portability: "Portabilidad",
};

/** Why a line is without registration, or what its last try met. */
export const WAITING_REASON_NAMES: Record<string, string> = {
  unavailable: "Validación sin respuesta",
  "not-found": "CURP no encontrada",
  "name-mismatch": "El nombre no coincide",
  deceased: "Persona fallecida",
  "document-mismatch": "La identificación no coincide",
  "selfie-not-live": "Selfie no válida",
  "line-limit": "Titular con 10 líneas",
  "no-holder": "Sin titular",
  "holder-unproved": "Titular sin identificación comprobada",
};

/** Where the line was registered. */
export const REGISTRATION_CHANNEL_NAMES: Record<RegistrationChannel, string> = {
  online: "En línea",
  checkout: "Compra",
  portability: "Portabilidad",
  tienda: "Tienda",
};

/** The words of `registros --estado`. */
export const REGISTRATION_STATE_WORDS: Record<string, RegistrationListWord> = {
  registrada: "registered",
  pendiente: "pending",
  suspendida: "suspended",
  disputada: "disputed",
};
