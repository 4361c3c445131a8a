/** Every message namespace, one JSON file each under public/locales/es/. Spanish is the only language. */
export const NAMESPACES = [
  "common",
  "portability",
  "help",
  "commerce",
  "auth",
  "topup",
  "line",
  "activation",
  "registration",
  "invoicing",
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Where the browser fetches messages; the server serves them with a 24-hour cache. */
export const LOCALES_PATH = "/locales/{{lng}}/{{ns}}.json";

/**
 * The namespaces the given route modules name in `handle.i18n` (a name or a list of names): in the
 * browser before hydration, the routes of the page, whose messages the first render needs.
 */
export function routeNamespaces(
  routeModules: Readonly<Record<string, { handle?: unknown } | undefined>>,
): string[] {
  const namespaces = new Set<string>();
  for (const module of Object.values(routeModules)) {
    const handle = module?.handle;
    if (typeof handle !== "object" || handle === null || !("i18n" in handle)) continue;
    const named = handle.i18n;
    for (const namespace of typeof named === "string"
      ? [named]
      : Array.isArray(named)
        ? named
        : []) {
      if (typeof namespace === "string") namespaces.add(namespace);
    }
  }
  return [...namespaces];
}
