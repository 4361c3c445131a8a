import { type Bss, isBssRefused } from "~/line/bss";

/**
 * Why a top-up to a number would not reach a line, known before the customer pays: the BSS does
 * not know the number, or the line cannot take it now (suspendida, portando, dada de baja).
 */
export type TopupLineProblem = "unknown" | "suspended" | "porting" | "terminated";

/**
 * What the BSS says of the line before the customer pays: it takes the top-up ("ok"); it takes it
 * but stays suspended until its holder registers it ("unregistered": the customer is warned
 * first, issue 27); or it cannot take it (refused, with why).
 */
export type TopupLineCheck =
  { kind: "ok" } | { kind: "unregistered" } | { kind: "problem"; problem: TopupLineProblem };

/**
 * Asks the BSS about the line to top up, once. A BssUnavailable goes on to the caller (the form
 * answers "try again", values kept); a refusal of the question itself reads as a number the BSS
 * does not know.
 */
export async function checkTopupLine(
  bss: Pick<Bss, "findLine">,
  number: string,
): Promise<TopupLineCheck> {
  try {
    const line = await bss.findLine(number);
    if (!line) return { kind: "problem", problem: "unknown" };
    if (line.status === "active") return { kind: "ok" };
    if (line.status === "unregistered") return { kind: "unregistered" };
    return { kind: "problem", problem: line.status };
  } catch (error) {
    if (isBssRefused(error)) return { kind: "problem", problem: "unknown" };
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
