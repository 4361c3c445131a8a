/** Settings shared by the server's and the browser's i18next. Spanish is the only language. */
export const i18nConfig = {
  supportedLngs: ["es"],
  fallbackLng: "es",
  lng: "es",
  defaultNS: "common",
  ns: ["common"],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} as const;

/** Where the browser fetches messages; the server serves them with a 24-hour cache. */
export const LOCALES_PATH = "/locales/{{lng}}/{{ns}}.json";
