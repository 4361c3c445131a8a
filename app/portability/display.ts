import { CARRIERS } from "./carriers";

/** Brand names stay as customers know them; "otro" reads as the translated "other company". */
export function carrierLabel(id: string, otherLabel: string): string {
  if (id === "otro") return otherLabel;
  return CARRIERS.find((carrier) => carrier.id === id)?.name ?? otherLabel;
}
