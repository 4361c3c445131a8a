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
 * No name, address or answer a customer types needs one of them. Joiners (U+200D, in emoji) and
 * other invisible characters that reorder or run nothing are left alone.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

const EVERY_CONTROL = new RegExp(CONTROL.source, "g");

/** The same, except the line ends ("\n", "\r\n") that a text written for the operator is made of. */
const EVERY_CONTROL_BUT_LINE_ENDS = new RegExp(`\\r(?!\\n)|(?![\\n\\r])${CONTROL.source}`, "g");

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/** "\u001B": what a control character is shown as. */
function visible(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
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
