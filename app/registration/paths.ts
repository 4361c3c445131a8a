/** The online registration of a line already in use. */
export const REGISTRATION_PATH = "/registro-de-linea";

/** Where the recipient of a new registration's notice says "no fui yo": the token only. */
export function disputePath(token: string): string {
  return `${REGISTRATION_PATH}/no-fui-yo/${token}`;
}
