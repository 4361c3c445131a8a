import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { isReadableMultipart, readBodyWithin } from "./request-body.server";

describe("readBodyWithin", () => {
  it("reads a body within the limit whole", async () => {
    const stream = new PassThrough();
    const read = readBodyWithin(stream, 10);
    stream.end(Buffer.from("intent=add"));
    expect(String(await read)).toBe("intent=add");
  });

  it("stops reading as soon as the body passes the limit, whatever still comes", async () => {
    const stream = new PassThrough();
    const read = readBodyWithin(stream, 64);
    let written = 0;
    const chunk = Buffer.alloc(16, "a");
    // A chunked body that never ends: the answer must not wait for it.
    while (written <= 64) {
      stream.write(chunk);
      written += chunk.length;
    }
    expect(await read).toBe("too-large");
    expect(stream.isPaused()).toBe(true);
  });
});

describe("isReadableMultipart", () => {
  const boundary = "----limite";
  const valid = `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd\r\n--${boundary}--\r\n`;

  it("accepts a well-formed form", async () => {
    expect(
      await isReadableMultipart(Buffer.from(valid), `multipart/form-data; boundary=${boundary}`),
    ).toBe(true);
  });

  it("refuses a missing boundary, another boundary, or a broken part", async () => {
    expect(await isReadableMultipart(Buffer.from(valid), "multipart/form-data")).toBe(false);
    expect(
      await isReadableMultipart(Buffer.from(valid), "multipart/form-data; boundary=otro"),
    ).toBe(false);
    expect(
      await isReadableMultipart(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx`),
        `multipart/form-data; boundary=${boundary}`,
      ),
    ).toBe(false);
  });
});
