import type { PortabilityStatus } from "~/db/schema";

/** Each status as the operator reads it, in Spanish (the ops lists, and its refusals). */
export const PORTABILITY_STATUS_NAMES: Record<PortabilityStatus, string> = {
  received: "Recibida",
  in_progress: "Programada",
  completed: "Completada",
  rejected: "Rechazada",
};
