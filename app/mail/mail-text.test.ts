import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { hasMailText, mailMessages, mailT } from "./mail-text";

/** Every message key of the "mail" namespace, plural suffixes folded into the base key. */
function keysOf(messages: unknown, prefix = ""): string[] {
  if (!messages || typeof messages !== "object" || Array.isArray(messages)) return [];
  return Object.entries(messages).flatMap(([key, value]) => {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string"
      ? [keyPath.replace(/_(zero|one|two|few|many|other)$/, "")]
      : keysOf(value, keyPath);
  });
}

const mailKeys = [...new Set(keysOf(mailMessages.mail))];

describe("the e-mails' texts", () => {
  it("read exactly as i18next reads them, so mail.json stays an i18next file", async () => {
    const i18next = createInstance();
    await i18next.init({
      lng: "es",
      fallbackLng: "es",
      defaultNS: "mail",
      resources: { es: mailMessages },
      interpolation: { escapeValue: false },
    });
    const reference = i18next.getFixedT("es", "mail");
    const placeholders = [
      ...JSON.stringify(mailMessages.mail).matchAll(/\{\{\s*([\w.]+)\s*\}\}/g),
    ].map((match) => match[1]);
    const values = Object.fromEntries(placeholders.map((name) => [name, `«${name}»`]));
    for (const key of mailKeys) {
      for (const count of [undefined, 1, 2]) {
        const withCount = count === undefined ? values : { ...values, count };
        if (!hasMailText(key, withCount)) continue;
        expect(mailT(key, withCount), key).toBe(reference(key, withCount));
      }
    }
  });

  it("refuses a key that names no message instead of sending it", () => {
    expect(() => mailT("orderPaid.nope")).toThrow();
    expect(() => mailT("commerce:nope")).toThrow();
    expect(mailT("labels.folio")).toBe("Folio");
    expect(mailT("commerce:confirmation.simTypes.esim")).toBe("eSIM");
  });

  it("are all used by a template", () => {
    const sources = readdirSync(__dirname)
      .filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file))
      .map((file) => readFileSync(path.join(__dirname, file), "utf8"))
      .join("\n");
    // Keys are written whole, or as a prefix completed by a status or a method.
    const unused = mailKeys.filter((key) => {
      const parts = key.split(".");
      const ancestors = parts.slice(1).map((_, index) => parts.slice(0, index + 1).join("."));
      return (
        !sources.includes(`"${key}"`) &&
        !ancestors.some((ancestor) => sources.includes(`\`${ancestor}.\${`))
      );
    });
    expect(unused).toEqual([]);
  });
});
