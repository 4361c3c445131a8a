import { Writable } from "node:stream";

/**
 * Where React's HTML is written when the document is sent whole: the chunks are joined into one
 * buffer, so the response is one write instead of one per 2 KB chunk through three stream kinds.
 * Every loader has finished before rendering starts (no deferred data), so nothing is shown later
 * than with streaming.
 */
export function createHtmlCollector(onFinished: (html: Buffer<ArrayBuffer>) => void): Writable {
  // React hands over views it never writes to again: kept as they are, copied once by concat.
  const chunks: Uint8Array[] = [];
  return new Writable({
    write(chunk: Uint8Array, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
    final(callback) {
      onFinished(Buffer.concat(chunks));
      callback();
    },
  });
}

const SCRIPT_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY = Buffer.from(' fetchpriority="low"');

/**
 * React Router preloads every script chunk of the page (18–30 of them) at the browser's high priority,
 * ahead of what the first paint needs. Every page is whole without JavaScript (forms post as
 * HTML), so paint comes first: the chunks are still fetched at once, at low priority.
 */
export function withLowPriorityScriptPreloads(html: Buffer): Buffer<ArrayBuffer> {
  const parts: Buffer[] = [];
  let previous = 0;
  for (
    let found = html.indexOf(SCRIPT_PRELOAD);
    found !== -1;
    found = html.indexOf(SCRIPT_PRELOAD, previous)
  ) {
    const after = found + SCRIPT_PRELOAD.length;
    parts.push(html.subarray(previous, after), LOW_PRIORITY);
    previous = after;
  }
  parts.push(html.subarray(previous));
  return Buffer.concat(parts);
}
