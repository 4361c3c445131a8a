/** The order's page: reachable with its unguessable reference (decision 0014). */
export function confirmationPath(ref: string): string {
  return `/confirmation?pedido=${encodeURIComponent(ref)}`;
}
