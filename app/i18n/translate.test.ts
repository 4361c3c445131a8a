import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { NAMESPACES } from "./i18n";
import { getFixedT, resources } from "./i18n.server";
import { createTranslator, type Messages, spanishPluralCategory } from "./translate";
import { formatDateTime } from "~/lib/dates";

/** i18next itself, the reference implementation of the locale files' format. */
const i18next = createInstance();
void i18next.init({
  lng: "es",
  fallbackLng: "es",
  defaultNS: "common",
  ns: Object.keys(resources),
  resources: { es: resources },
  interpolation: { escapeValue: false },
  initImmediate: false,
});

/** Every message key of a namespace, plural suffixes folded into the base key. */
function keysOf(messages: unknown, prefix = ""): string[] {
  if (!messages || typeof messages !== "object" || Array.isArray(messages)) return [];
  return Object.entries(messages).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string"
      ? [path.replace(/_(zero|one|two|few|many|other)$/, "")]
      : keysOf(value, path);
  });
}

function placeholdersOf(messages: unknown): string[] {
  return [...JSON.stringify(messages).matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]);
}

const browserT = (namespace: string) =>
  createTranslator((name) => (resources as Record<string, Messages>)[name], namespace);

describe("the translator the server and the browser render with", () => {
  it("knows every namespace the server bundles", () => {
    expect(Object.keys(resources).sort()).toEqual([...NAMESPACES].sort());
  });

  for (const namespace of NAMESPACES) {
    it(`gives exactly i18next's text for every message of "${namespace}"`, () => {
      const messages = resources[namespace];
      const values = Object.fromEntries(
        placeholdersOf(messages).map((name) => [name, `«${name}»`]),
      );
      const reference = i18next.getFixedT("es", namespace);
      const server = getFixedT(namespace);
      const browser = browserT(namespace);
      for (const key of new Set(keysOf(messages))) {
        for (const count of [undefined, 0, 1, 2, 5, 1_000_000]) {
          const withCount = count === undefined ? values : { ...values, count };
          const expected = reference(key, withCount);
          expect(browser(key, withCount), `${namespace}:${key} count=${count}`).toBe(expected);
          expect(server(key, withCount), `${namespace}:${key} count=${count}`).toBe(expected);
        }
        // Without values, twice: the second answer comes from the memo and must not differ.
        expect(server(key)).toBe(browserT(namespace)(key));
        expect(server(key)).toBe(browserT(namespace)(key));
      }
    });
  }

  it("reads keys of another namespace, plurals and missing keys like i18next", () => {
    const t = createTranslator(
      (name) =>
        ({
          a: {
            greeting: "Hola {{name}}",
            items_one: "{{count}} artículo",
            items_other: "{{count}} artículos",
          },
          b: { nested: { deep: "Profundo" } },
        })[name],
      "a",
    );
    expect(t("greeting", { name: "Ana" })).toBe("Hola Ana");
    expect(t("items", { count: 1 })).toBe("1 artículo");
    expect(t("items", { count: 3 })).toBe("3 artículos");
    expect(t("b:nested.deep")).toBe("Profundo");
    expect(t("missing.key")).toBe("missing.key");
  });

  it("ends a sentence once after a value that ends with its own period (a time's a.m.)", () => {
    const t = createTranslator(
      () => ({
        installed: "Instalada el {{date}}.",
        until: "Hasta el {{date}}. Después, {{then}}.",
        ellipsis: "Cargando {{what}}...",
      }),
      "a",
    );
    const installedAt = formatDateTime("2026-12-07T11:20:00.000Z");
    expect(installedAt).toMatch(/a\.m\.$/);
    expect(t("installed", { date: installedAt })).toBe(`Instalada el ${installedAt}`);
    expect(t("installed", { date: installedAt })).not.toContain("..");
    expect(t("until", { date: "5:20 p.m.", then: "nada" })).toBe(
      "Hasta el 5:20 p.m. Después, nada.",
    );
    expect(t("installed", { date: "7 de diciembre de 2026" })).toBe(
      "Instalada el 7 de diciembre de 2026.",
    );
    expect(t("ellipsis", { what: "etc." })).toBe("Cargando etc....");
    // Through the server's translator too: the eSIM's sentence of the order page.
    expect(getFixedT("commerce")("confirmation.esim.installed", { date: installedAt })).not.toMatch(
      /\.\.$/,
    );
  });

  it("shows a finished message that holds a colon as it is", () => {
    const t = createTranslator(() => ({}), "a");
    expect(t("Revisa este dato: no tiene un formato válido.")).toBe(
      "Revisa este dato: no tiene un formato válido.",
    );
  });

  it("does not remember a message before its namespace has loaded", () => {
    const loaded = new Map<string, Messages>();
    const t = createTranslator((namespace) => loaded.get(namespace), "late");
    expect(t("title")).toBe("title");
    loaded.set("late", { title: "Título" });
    expect(t("title")).toBe("Título");
  });
});

describe("spanishPluralCategory", () => {
  const intlPlurals = new Intl.PluralRules("es");

  it("gives Intl's category for counts around one, whole millions, fractions and negatives", () => {
    const counts = [0, 1, 2, 5, 10, 21, 100, 999_999, 1_000_000, 1_000_001, 2_000_000, 5e6 + 0.5];
    counts.push(0.5, 1.0001, 1.0004, 1.0005, 0.9995, 0.9994, 0.9999, 1.5, 3e7, 1e9, 123_000_000);
    counts.push(999_999.9995, 999_999.9994, 1e6 + 0.0004, 1e6 + 0.0005, 4e6 - 0.0005, 4e6 + 0.0001);
    for (let count = 0; count <= 3_000; count += 1) counts.push(count / 100);
    for (const count of counts) {
      expect(spanishPluralCategory(count), String(count)).toBe(intlPlurals.select(count));
      expect(spanishPluralCategory(-count), String(-count)).toBe(intlPlurals.select(-count));
    }
  });
});
