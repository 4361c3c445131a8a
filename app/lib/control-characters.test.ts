import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  escapeControlCharacters,
  hasControlCharacters,
  withoutControlCharacters,
} from "./control-characters";

const REFUSED = [
  ["NUL", "\u0000"],
  ["BEL", "\u0007"],
  ["TAB", "\t"],
  ["LF", "\n"],
  ["CR", "\r"],
  ["ESC", "\u001B"],
  ["U+001F", "\u001F"],
  ["DEL", "\u007F"],
  ["C1 NEL", "\u0085"],
  ["C1 CSI", "\u009B"],
  ["arabic letter mark", "\u061C"],
  ["left-to-right mark", "\u200E"],
  ["right-to-left mark", "\u200F"],
  ["line separator", "\u2028"],
  ["paragraph separator", "\u2029"],
  ["left-to-right embedding", "\u202A"],
  ["right-to-left override", "\u202E"],
  ["left-to-right isolate", "\u2066"],
  ["pop directional isolate", "\u2069"],
  ["noncharacter U+FDD0", "\uFDD0"],
  ["noncharacter U+FDEF", "\uFDEF"],
  ["noncharacter U+FFFE", "\uFFFE"],
  ["noncharacter U+FFFF", "\uFFFF"],
  ["noncharacter U+1FFFE", "\u{1FFFE}"],
  ["noncharacter U+10FFFF", "\u{10FFFF}"],
  ["lone high surrogate", "\uD800"],
  ["lone low surrogate", "\uDFFF"],
] as const;

describe("control characters", () => {
  it.each(REFUSED)("finds %s", (_name, character) => {
    expect(hasControlCharacters(`Ana${character}López`)).toBe(true);
  });

  it.each([
    "Ana María López Hernández",
    "Av. Insurgentes Sur #1234, int. 5-B (esq. Félix Cuevas)",
    "Ñuñoa · Çedille · ß · 北京 · عربى · עברית",
    "Familia 👨\u200D👩\u200D👧 García",
    "Juan\u00A0Pérez",
  ])("leaves ordinary text alone: %j", (text) => {
    expect(hasControlCharacters(text)).toBe(false);
    expect(escapeControlCharacters(text)).toBe(text);
  });

  it("writes each one as a visible escape that nothing acts on", () => {
    expect(escapeControlCharacters("\u001B[31mAna\u0007\r\n\u202Eoloh")).toBe(
      "\\u001B[31mAna\\u0007\\u000D\\u000A\\u202Eoloh",
    );
    expect(hasControlCharacters(escapeControlCharacters("\u0000\u009B\u2066"))).toBe(false);
  });

  it("writes a noncharacter past the first plane as one escape", () => {
    expect(escapeControlCharacters("Ana\u{10FFFF}\uFFFF\uD800")).toBe(
      "Ana\\u{10FFFF}\\uFFFF\\uD800",
    );
  });

  it("can keep the line ends a text is made of, and only those", () => {
    expect(
      escapeControlCharacters("uno\r\ndos\nAna\rBeto\u001B]0;x\u0007\r", { keepLineEnds: true }),
    ).toBe("uno\r\ndos\nAna\\u000DBeto\\u001B]0;x\\u0007\\u000D");
  });

  it("refuses them in a form field with the schema's own message", () => {
    const field = z.string().trim().check(withoutControlCharacters("ns:errors.controlCharacters"));
    expect(field.safeParse("  Ana López\n").data).toBe("Ana López");
    const refused = field.safeParse("Ana\u202E López");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      "ns:errors.controlCharacters",
    ]);
  });
});
