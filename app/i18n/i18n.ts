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
