/** Where a physical SIM is activated with its ICCID (decision 0092). */
export const SIM_ACTIVATION_PATH = "/activar";

/** The signed-in customer's lines, and where one is added. */
export const LINES_PATH = "/my-account/lineas";

/** One line of the account: its number is the address (only the account's own opens). */
export function linePath(number: string): string {
  return `${LINES_PATH}/${encodeURIComponent(number)}`;
}

/** A line's balance without an account: number, then the code sent to it by SMS. */
export const BALANCE_PATH = "/saldo";

/** The signed-in top-up form with this line filled in. */
export function topupLinePath(number: string): string {
  return `/my-account/recarga?numero=${encodeURIComponent(number)}`;
}
