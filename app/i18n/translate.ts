/**
 * The browser's translator: the subset of i18next's format the locale files use — `ns:key`
 * prefixes, nested keys, `{{value}}` interpolation and `_one`/`_other` plurals chosen by the
 * Spanish plural rules. The server renders with i18next itself; a unit test proves both give the
 * same text for every message, so hydration always matches.
 */
export type Messages = { [key: string]: unknown };
export type TranslationValues = Record<string, unknown>;
export type TFunction = (key: string, values?: TranslationValues) => string;

const spanishPlurals = new Intl.PluralRules("es");

function lookup(source: unknown, path: string): unknown {
  let node = source;
  for (const part of path.split(".")) {
    if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function createTranslator(
  messagesOf: (namespace: string) => Messages | undefined,
  defaultNamespace: string,
): TFunction {
  return (key, values = {}) => {
    const separator = key.indexOf(":");
    const namespace = separator > 0 ? key.slice(0, separator) : defaultNamespace;
    const path = separator > 0 ? key.slice(separator + 1) : key;
    const messages = messagesOf(namespace);
    let template: unknown;
    if (typeof values.count === "number") {
      template =
        lookup(messages, `${path}_${spanishPlurals.select(values.count)}`) ??
        lookup(messages, `${path}_other`);
    }
    template ??= lookup(messages, path);
    if (typeof template !== "string") {
      return typeof values.defaultValue === "string" ? values.defaultValue : path;
    }
    return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_match, name: string) => {
      const value = lookup(values, name);
      return value === undefined || value === null ? "" : String(value);
    });
  };
}
