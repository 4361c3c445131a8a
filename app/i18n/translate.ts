/**
 * The translator the server and the browser both render with: the subset of i18next's format the
 * locale files use — `ns:key` prefixes, nested keys, `{{value}}` interpolation and `_one`/`_other`
 * plurals chosen by the Spanish plural rules. A unit test proves it gives i18next's text for every
 * message, so the files stay i18next files.
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

/** Enough for every key the code names; a bound in case a key ever comes from input. */
const PLAIN_MESSAGE_CACHE_LIMIT = 5_000;

export function createTranslator(
  messagesOf: (namespace: string) => Messages | undefined,
  defaultNamespace: string,
): TFunction {
  // Messages without values are most of a page and never change once loaded: the server renders
  // each page from this cache instead of walking the message tree hundreds of times.
  const plainMessages = new Map<string, string>();
  return (key, values) => {
    if (values === undefined) {
      const cached = plainMessages.get(key);
      if (cached !== undefined) return cached;
    }
    const separator = key.indexOf(":");
    const namespace = separator > 0 ? key.slice(0, separator) : defaultNamespace;
    const path = separator > 0 ? key.slice(separator + 1) : key;
    const messages = messagesOf(namespace);
    const text = render(messages, path, values ?? {});
    if (values === undefined && messages && plainMessages.size < PLAIN_MESSAGE_CACHE_LIMIT) {
      plainMessages.set(key, text);
    }
    return text;
  };
}

function render(messages: Messages | undefined, path: string, values: TranslationValues): string {
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
}
