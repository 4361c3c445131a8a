import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";

/**
 * A request body read into memory up to `limit` bytes, or "too-large" as soon as it passes the
 * limit: reading stops there, so a body sent without a declared length (chunked) can never make
 * the server hold more than the limit, whatever the client keeps sending.
 */
export function readBodyWithin(
  stream: Readable,
  limit: number,
): Promise<Buffer<ArrayBuffer> | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: Buffer<ArrayBuffer> | "too-large" | Error) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        chunks.length = 0;
        finish("too-large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onError = (error: Error) => finish(error);
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}

/**
 * After a body was refused part-way: what the client still sends is discarded for a moment, so
 * that its side does not reset the connection before it has read the answer (a close with
 * unread data resets it, and the reset drops our answer), then the connection is closed. Nothing
 * is kept; the moment is bounded in time, and in bytes against a client faster than a network.
 */
export function discardThenHangUp(
  request: IncomingMessage,
  limits: { maxBytes: number; maxMs: number } = { maxBytes: 256 * 1024 * 1024, maxMs: 1_000 },
) {
  let discarded = 0;
  const hangUp = () => {
    clearTimeout(timer);
    request.socket.destroy();
  };
  const timer = setTimeout(hangUp, limits.maxMs);
  timer.unref();
  request.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) hangUp();
  });
  request.on("end", () => clearTimeout(timer));
  request.resume();
}

/**
 * Whether a `multipart/form-data` body can be read as a form: a malformed one (no boundary, a
 * broken part) would make `request.formData()` throw inside an action, a 500.
 */
export async function isReadableMultipart(
  body: Buffer<ArrayBuffer>,
  contentType: string,
): Promise<boolean> {
  try {
    await new Response(body, { headers: { "Content-Type": contentType } }).formData();
    return true;
  } catch {
    return false;
  }
}
