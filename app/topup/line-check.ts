import { type Bss, isBssRefused } from "~/line/bss";

/**
 * Why a top-up to a number would not reach a line, known before the customer pays: the BSS does
 * not know the number, or the line cannot take it now (suspendida, portando, dada de baja).
 */
export type TopupLineProblem = "unknown" | "suspended" | "porting" | "terminated";

/**
 * Asks the BSS about the line to top up: null when it is active and can take the top-up. A
 * BssUnavailable goes on to the caller (the form answers "try again", values kept); a refusal of
 * the question itself reads as a number the BSS does not know.
 */
export async function topupLineProblem(
  bss: Pick<Bss, "findLine">,
  number: string,
): Promise<TopupLineProblem | null> {
  try {
    const line = await bss.findLine(number);
    if (!line) return "unknown";
    return line.status === "active" ? null : line.status;
  } catch (error) {
    if (isBssRefused(error)) return "unknown";
    throw error;
  }
}

/** The message of each problem, a key of the "topup" namespace. */
export const TOPUP_LINE_PROBLEM_KEYS: Record<TopupLineProblem, string> = {
  unknown: "topup:errors.lineUnknown",
  suspended: "topup:errors.lineSuspended",
  porting: "topup:errors.linePorting",
  terminated: "topup:errors.lineTerminated",
};
