import { linePath } from "~/line/paths";

/** The automatic top-up's settings of one of the account's lines (decision 0120). */
export function autoTopupPath(number: string): string {
  return `${linePath(number)}/recarga-automatica`;
}
