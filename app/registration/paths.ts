/** The online registration of a line already in use. */
export const REGISTRATION_PATH = "/registro-de-linea";

/**
 * Where the recipient of a new registration's notice says "no fui yo": the token only, on a short
 * path (the SMS carrying it has 160 characters).
 */
export function disputePath(token: string): string {
  return `/no-fui-yo/${token}`;
}

/**
 * Where an order's holder shows their identification after paying (decision 0139): the order's
 * reference in the query, as on the order's page.
 */
export const HOLDER_PROOF_PATHNAME = "/pedido/titular";

export function holderProofPath(orderRef: string): string {
  return `${HOLDER_PROOF_PATHNAME}?pedido=${encodeURIComponent(orderRef)}`;
}

/** The operator's points of service, found by postal code or state (decision 0140). */
export const POINTS_OF_SERVICE_PATH = "/puntos-de-atencion";

/** The request for an assisted validation, the online alternative to a store (decision 0140). */
export const ASSISTED_VALIDATION_PATH = "/registro-de-linea/validacion-asistida";
