/**
 * Case- and accent-folding for search. "Teléfono", "TELEFONO" and "telefono" fold to the same
 * text, so a customer finds an answer however they type it.
 *
 * Folding can change a text's length (a decomposed "é" is two code units, "İ" lowercases to two),
 * so the folded form keeps, for each of its characters, where that character came from in the
 * original. A match found in folded text can then be highlighted in the text the customer reads.
 */
export interface FoldedText {
  original: string;
  folded: string;
  /** For each folded character: where its source character starts in `original`. */
  starts: number[];
  /** For each folded character: where its source character ends (exclusive) in `original`. */
  ends: number[];
}

const COMBINING_MARKS = /\p{M}/gu;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Lower case, without accents or other combining marks ("Móvil" → "movil", "Ñ" → "n"). */
export function foldCharacter(character: string): string {
  return character.normalize("NFD").replace(COMBINING_MARKS, "").toLowerCase();
}

export function fold(text: string): string {
  return text.normalize("NFD").replace(COMBINING_MARKS, "").toLowerCase();
}

export function foldWithMap(original: string): FoldedText {
  let folded = "";
  const starts: number[] = [];
  const ends: number[] = [];
  let position = 0;
  // By code point, so that a surrogate pair is never split.
  for (const character of original) {
    const foldedCharacter = foldCharacter(character);
    const end = position + character.length;
    for (let index = 0; index < foldedCharacter.length; index += 1) {
      starts.push(position);
      ends.push(end);
    }
    folded += foldedCharacter;
    position = end;
  }
  return { original, folded, starts, ends };
}

export function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && WORD_CHARACTER.test(character);
}

/** True where a word begins: the first character, or one after a space or punctuation. */
export function isWordStart(text: string, index: number): boolean {
  return index === 0 || !isWordCharacter(text[index - 1]);
}
