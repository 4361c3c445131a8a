import { CARRIERS } from "./carriers";

const requestDate = new Intl.DateTimeFormat("es-MX", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "America/Mexico_City",
});

/** "3 de junio de 2026, 10:15": Mexico City time, the same on the server and in the browser. */
export function formatRequestDate(iso: string): string {
  return requestDate.format(new Date(iso));
}

/** Brand names stay as customers know them; "otro" reads as the translated "other company". */
export function carrierLabel(id: string, otherLabel: string): string {
  if (id === "otro") return otherLabel;
  return CARRIERS.find((carrier) => carrier.id === id)?.name ?? otherLabel;
}
