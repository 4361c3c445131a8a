const mexicoCityDateTime = new Intl.DateTimeFormat("es-MX", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "America/Mexico_City",
});

/**
 * "3 de marzo de 2026, 14:05" in Mexico City time, whatever the server's or the browser's zone:
 * the same text on both sides, so hydration never disagrees.
 */
export function formatDateTime(iso: string): string {
  return mexicoCityDateTime.format(new Date(iso));
}
