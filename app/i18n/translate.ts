/**
 * The translator the server and the browser both render with: the subset of i18next's format the
 * locale files use — `ns:key` prefixes, nested keys, `{{value}}` interpolation and `_one`/`_other`
 * plurals chosen by the Spanish plural rules. A unit test proves it gives i18next's text for every
 * message, so the files stay i18next files; one difference, on purpose: a value ending with a
 * period before the message's own full stop gives one period (`fill`).
 */
export type Messages = { [key: string]: unknown };
export type TranslationValues = Record<string, unknown>;
export type TFunction = (key: string, values?: TranslationValues) => string;

/**
 * The plural category `Intl.PluralRules("es")` gives a count, written out (decision 0128): building
 * the first Intl object of a page loads ICU's locale data while the page starts. Spanish has three:
 * "one" for 1, "many" for whole millions (a message's `_many` form where it has one, else
 * `_other`), "other" for the rest. Exact for counts below about 4e12, far above any count shown.
 */
export function spanishPluralCategory(count: number): "one" | "many" | "other" {
  // Intl reads the count as written to three decimals, half away from zero: 0.9995 is "1",
  // 1.0005 is "1.001". Comparing doubles with those decimals compares their shortest decimal forms.
  const size = Math.abs(count);
  if (size >= 0.9995 && size < 1.0005) return "one";
  const millions = Math.round(size / 1_000_000);
  const nearest = millions * 1_000_000;
  return millions > 0 && size >= nearest - 0.0005 && size < nearest + 0.0005 ? "many" : "other";
}

const NAMESPACE_NAME = /^[\w-]+$/;

function lookup(source: unknown, path: string): unknown {
  let node = source;
  for (const part of path.split(".")) {
    if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Enough for every key the code names; a bound in case a key ever comes from input. */
const CACHE_LIMIT = 5_000;

/** A message split at its `{{name}}` placeholders: literal text at even indexes, names at odd. */
type CompiledTemplate = string[];

function compile(template: string): CompiledTemplate {
  return template.split(/\{\{\s*([\w.]+)\s*\}\}/);
}

export function createTranslator(
  messagesOf: (namespace: string) => Messages | undefined,
  defaultNamespace: string,
): TFunction {
  // A page calls t() hundreds of times with the same keys, and messages never change once their
  // namespace has loaded: remember each finished plain message and each compiled template.
  const plainMessages = new Map<string, string>();
  const templates = new Map<string, CompiledTemplate | null>();

  function templateAt(namespace: string, messages: Messages | undefined, path: string) {
    const cacheKey = `${namespace}:${path}`;
    let compiled = templates.get(cacheKey);
    if (compiled === undefined) {
      const template = lookup(messages, path);
      compiled = typeof template === "string" ? compile(template) : null;
      if (messages && templates.size < CACHE_LIMIT) templates.set(cacheKey, compiled);
    }
    return compiled;
  }

  return (key, values) => {
    if (values === undefined) {
      const cached = plainMessages.get(key);
      if (cached !== undefined) return cached;
    }
    // Only a name before the colon is a namespace: "Revisa este dato: …" is a finished message.
    const colon = key.indexOf(":");
    const separator = colon > 0 && NAMESPACE_NAME.test(key.slice(0, colon)) ? colon : -1;
    const namespace = separator > 0 ? key.slice(0, separator) : defaultNamespace;
    const path = separator > 0 ? key.slice(separator + 1) : key;
    const messages = messagesOf(namespace);
    const given = values ?? {};
    let template: CompiledTemplate | null = null;
    if (typeof given.count === "number") {
      template =
        templateAt(namespace, messages, `${path}_${spanishPluralCategory(given.count)}`) ??
        templateAt(namespace, messages, `${path}_other`);
    }
    template ??= templateAt(namespace, messages, path);
    const text = template
      ? fill(template, given)
      : typeof given.defaultValue === "string"
        ? given.defaultValue
        : path;
    if (values === undefined && messages && plainMessages.size < CACHE_LIMIT) {
      plainMessages.set(key, text);
    }
    return text;
  };
}

/**
 * A value that ends with its own period (a time, "5:20 a.m."; an abbreviation) followed by the
 * message's full stop takes one period, not two ("Instalada el … a las 5:20 a.m."), as Spanish
 * writes it (issue 48). The one place a message meets its values: every page and e-mail. An
 * ellipsis after the value ("...") is left as it is.
 */
function joinsSentenceEnd(value: string, next: string): boolean {
  return value.endsWith(".") && next.startsWith(".") && !next.startsWith("..");
}

function fill(template: CompiledTemplate, values: TranslationValues): string {
  if (template.length === 1) return template[0];
  let text = "";
  let swallowPeriod = false;
  for (let index = 0; index < template.length; index++) {
    if (index % 2 === 0) {
      text += swallowPeriod ? template[index].slice(1) : template[index];
      swallowPeriod = false;
    } else {
      const value = lookup(values, template[index]);
      const shown = value === undefined || value === null ? "" : String(value);
      text += shown;
      swallowPeriod = joinsSentenceEnd(shown, template[index + 1] ?? "");
    }
  }
  return text;
}
