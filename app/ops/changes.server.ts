import os from "node:os";

/**
 * The operator's changes (`npm run ops`): an order shipped, a portability request scheduled,
 * completed or rejected. Each belongs to its capability, which writes the change, its audit row
 * (app/audit) and the customer's e-mail (app/mail-queue) in one transaction; ops only calls them
 * (decision 0085).
 */
export {
  recordShippedIccids,
  shipOrder,
  type RecordShippedIccidsInput,
  type ShipOrderInput,
} from "~/checkout/shipping.server";
export {
  completePortability,
  rejectPortability,
  schedulePortability,
  type CompletePortabilityInput,
  type CompletionResult,
  type PortInOutcome,
  type RejectPortabilityInput,
  type SchedulePortabilityInput,
} from "~/portability/progress.server";
export type {
  AppliedChange,
  ChangeResult,
  Refusal,
  RefusalCode,
} from "~/audit/status-changes.server";

/** Who makes the changes from this machine: "ops:<operating-system user>". */
export function opsActor(): string {
  let user: string | undefined;
  try {
    user = os.userInfo().username;
  } catch {
    // A user without a passwd entry (some containers): the environment still names it.
    user = process.env.USER ?? process.env.LOGNAME;
  }
  return `ops:${user || "desconocido"}`;
}
