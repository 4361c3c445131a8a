import { Transform } from "node:stream";

/**
 * React 18.3's Node stream renderer writes its whole 2 KB buffer when a multi-byte character
 * (á, é, ñ…) does not fit at its end, so the page carries NUL bytes there (react#31134). A NUL is
 * never valid in HTML: inside a script or an attribute the browser turns it into "�".
 */
export function withoutNulBytes(chunk: Uint8Array): Uint8Array {
  if (chunk.indexOf(0) === -1) return chunk;
  return chunk.filter((byte) => byte !== 0);
}

/** The stream React's HTML is piped into on its way to the response. */
export function createHtmlBodyStream(onFinished: () => void): Transform {
  return new Transform({
    transform(chunk: Uint8Array, _encoding, callback) {
      callback(null, withoutNulBytes(chunk));
    },
    final(callback) {
      onFinished();
      callback();
    },
  });
}
