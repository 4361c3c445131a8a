/** A one-time message for the next page: a translation key and its values, never free text. */
export interface Flash {
  kind: "success" | "error" | "info";
  key: string;
  values?: Record<string, string | number>;
}
