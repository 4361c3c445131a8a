import type { InlineRun } from "./content";
import { isWordCharacter, isWordStart, type FoldedText } from "./fold";

/** A stretch of the original text, [start, end). */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * Help text ready to render, as compact as the page data allows: a plain string, or a match to
 * mark. Most text has no match, so most of it travels as bare strings.
 */
export type Segment = string | { mark: string };

/** A run of content (see content.ts): text segments, a code span, or a link. */
export type Inline = Segment | { code: Segment[] } | { href: string; text: Segment[] };

/**
 * Where `term` (already folded) begins a word of the folded text. Matching word beginnings only
 * keeps "red" from finding "crédito" while "recarga" still finds "recargas".
 */
export function wordPrefixPositions(folded: string, term: string): number[] {
  const positions: number[] = [];
  if (!term) return positions;
  let index = folded.indexOf(term);
  while (index !== -1) {
    if (isWordStart(folded, index)) positions.push(index);
    index = folded.indexOf(term, index + 1);
  }
  return positions;
}

/**
 * The stretches of the original text to highlight for these terms: each match grows to the end
 * of its word (a search for "recarga" marks all of "recargas"), and overlapping stretches merge.
 */
export function matchRanges(text: FoldedText, terms: readonly string[]): TextRange[] {
  const { folded, starts, ends } = text;
  const found: TextRange[] = [];
  for (const term of terms) {
    for (const position of wordPrefixPositions(folded, term)) {
      let last = position + term.length - 1;
      while (isWordCharacter(folded[last + 1])) last += 1;
      found.push({ start: starts[position], end: ends[last] });
    }
  }
  return mergeRanges(found);
}

export function mergeRanges(ranges: TextRange[]): TextRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: TextRange[] = [];
  for (const range of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && range.start <= previous.end) previous.end = Math.max(previous.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** Splits text into segments, marking the given ranges (relative to the text's own start). */
export function splitSegments(text: string, ranges: readonly TextRange[]): Segment[] {
  const segments: Segment[] = [];
  let position = 0;
  for (const { start, end } of ranges) {
    const from = Math.max(start, position);
    const to = Math.min(end, text.length);
    if (to <= from) continue;
    if (from > position) segments.push(text.slice(position, from));
    segments.push({ mark: text.slice(from, to) });
    position = to;
  }
  if (position < text.length) segments.push(text.slice(position));
  return segments;
}

/**
 * Applies highlight ranges (in plain-text coordinates, as from `matchRanges` on the runs' joined
 * text) to the runs, keeping each link and code span whole. With a window, only that stretch of
 * the text is kept (for an excerpt).
 */
export function highlightRuns(
  runs: readonly InlineRun[],
  ranges: readonly TextRange[],
  window?: TextRange,
): Inline[] {
  const inlines: Inline[] = [];
  let offset = 0;
  for (const run of runs) {
    const runStart = offset;
    const runEnd = offset + run.text.length;
    offset = runEnd;
    const from = Math.max(runStart, window?.start ?? runStart);
    const to = Math.min(runEnd, window?.end ?? runEnd);
    if (to <= from) continue;
    const text = run.text.slice(from - runStart, to - runStart);
    const local = ranges
      .filter((range) => range.end > from && range.start < to)
      .map((range) => ({ start: range.start - from, end: range.end - from }));
    const segments = splitSegments(text, local);
    if (run.kind === "code") inlines.push({ code: segments });
    else if (run.kind === "link") inlines.push({ href: run.href, text: segments });
    else inlines.push(...segments);
  }
  return inlines;
}

/** The text an inline sequence reads as, without marks or markup. */
export function inlineText(inlines: readonly Inline[]): string {
  const segmentText = (segment: Segment) => (typeof segment === "string" ? segment : segment.mark);
  return inlines
    .map((inline) => {
      if (typeof inline === "string" || "mark" in inline) return segmentText(inline);
      return ("code" in inline ? inline.code : inline.text).map(segmentText).join("");
    })
    .join("");
}

/** The marked words, in order: what a search highlighted. */
export function markedWords(inlines: readonly Inline[]): string[] {
  const marks = (segments: readonly Segment[]) =>
    segments.flatMap((segment) => (typeof segment === "string" ? [] : [segment.mark]));
  return inlines.flatMap((inline) => {
    if (typeof inline === "string" || "mark" in inline) return marks([inline]);
    return marks("code" in inline ? inline.code : inline.text);
  });
}

const EXCERPT_LEAD = 60;
const EXCERPT_LENGTH = 200;

/**
 * A stretch of about 200 characters around the first match, cut at spaces so no word is broken.
 * `clippedStart`/`clippedEnd` say where an ellipsis belongs.
 */
export function excerptWindow(
  text: string,
  firstMatch: TextRange,
): TextRange & { clippedStart: boolean; clippedEnd: boolean } {
  let start = Math.max(0, firstMatch.start - EXCERPT_LEAD);
  if (start > 0) {
    const space = text.indexOf(" ", start);
    start = space === -1 || space >= firstMatch.start ? firstMatch.start : space + 1;
  }
  let end = Math.min(text.length, start + EXCERPT_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    end = space > firstMatch.end ? space : Math.max(end, firstMatch.end);
  }
  return { start, end, clippedStart: start > 0, clippedEnd: end < text.length };
}
