import * as z from "zod";

/**
 * Characters that a terminal, a spreadsheet or a text renderer acts on instead of showing, so
 * that text holding them can say something other than what it shows (decision 0080):
 *
 * - C0 controls U+0000–U+001F: ESC starts the sequences that recolour a terminal, move its
 *   cursor, retitle its window or write to its clipboard; BEL rings; CR returns to the start of
 *   the line and the rest overwrites it; LF and TAB break a one-line value into lines or cells.
 * - DEL U+007F and the C1 controls U+0080–U+009F (U+009B is a one-character CSI, U+0085 a line
 *   break).
 * - The line and paragraph separators U+2028 and U+2029.
 * - The bidirectional formatting characters: embeddings and overrides U+202A–U+202E, isolates
 *   U+2066–U+2069 ("Trojan Source", CVE-2021-42574), and the invisible marks U+200E, U+200F and
 *   U+061C, which reorder the punctuation and digits around them.
 *
 * - The noncharacters U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF,
 *   U+1FFFE… U+10FFFF), which Unicode keeps for a program's own use: XML 1.0 refuses U+FFFE and
 *   U+FFFF, so a name holding one made the CFDI's XML not well-formed (decision 0137).
 * - A lone surrogate (U+D800–U+DFFF not in a pair): no character at all, and no UTF-8 writes it.
 *
 * No name, address or answer a customer types needs one of them. Joiners (U+200D, in emoji) and
 * other invisible characters that reorder or run nothing are left alone.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFDD0-\uFDEF\uFFFE\uFFFF\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}\uD800-\uDFFF]/u;

const EVERY_CONTROL = new RegExp(CONTROL.source, "gu");

/** The same, except the line ends ("\n", "\r\n") that a text written for the operator is made of. */
const EVERY_CONTROL_BUT_LINE_ENDS = new RegExp(`\\r(?!\\n)|(?![\\n\\r])${CONTROL.source}`, "gu");

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/** "\u001B" (or "\u{10FFFF}" past the first plane): what a control character is shown as. */
function visible(character: string): string {
  const code = character.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/**
 * The text with each control character written as a visible escape ("\u001B", "\u202E"), so
 * that the reader sees that it was there and nothing acts on it.
 */
export function escapeControlCharacters(
  text: string,
  { keepLineEnds = false }: { keepLineEnds?: boolean } = {},
): string {
  return text.replace(keepLineEnds ? EVERY_CONTROL_BUT_LINE_ENDS : EVERY_CONTROL, visible);
}

/**
 * The refinement every free-text field of a form ends with: a value holding a control character
 * is refused with the schema's own message (a translation key of its namespace). Placed after
 * `.trim()`, it judges the value that is kept: a line break pasted at either end is just trimmed.
 */
export function withoutControlCharacters(params: string | { error: string }) {
  return z.refine<string>((text) => !hasControlCharacters(text), params);
}
