import { PassThrough, type Duplex } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement, type ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  createHtmlCollector,
  withLowPriorityScriptPreloads,
  withoutNulBytes,
} from "./html-stream.server";

function streamed(element: ReactElement, body: Duplex): Promise<string> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        pipe(body);
        text(body).then(resolve, reject);
      },
      onShellError: reject,
    });
  });
}

/** A list of Spanish words; the padding moves an "á" across React's 2 KB chunk boundary. */
const countries = (padding: number) =>
  createElement(
    "ul",
    null,
    createElement("li", { key: "padding" }, "a".repeat(padding + 1)),
    ...Array.from({ length: 300 }, (_, index) => createElement("li", { key: index }, "Canadá")),
  );

describe("the HTML document as it is sent", () => {
  it("delivers Spanish text whole where React's renderer pads a chunk with NUL bytes", async () => {
    let brokenLayout: ReactElement | undefined;
    for (let padding = 0; padding < 16 && !brokenLayout; padding++) {
      const raw = await streamed(countries(padding), new PassThrough());
      if (raw.includes("\u0000")) brokenLayout = countries(padding);
    }
    expect(brokenLayout, "React's renderer no longer pads chunks: drop this stream").toBeDefined();

    const html = await new Promise<string>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(brokenLayout!, {
        onAllReady() {
          pipe(createHtmlCollector((whole) => resolve(whole.toString("utf8"))));
        },
        onShellError: reject,
      });
    });
    expect(html).toBe(renderToString(brokenLayout!));
  });

  it("passes chunks without NUL bytes through untouched", () => {
    const chunk = new TextEncoder().encode("Portabilidad en 24 horas");
    expect(withoutNulBytes(chunk)).toBe(chunk);
    expect(new TextDecoder().decode(withoutNulBytes(new Uint8Array([104, 0, 105])))).toBe("hi");
  });
});

describe("script preloads", () => {
  it("are all asked for at low priority, and nothing else in the page changes", () => {
    const page =
      '<head><link rel="modulepreload" href="/build/a.js"/><link rel="stylesheet" href="/a.css"/>' +
      '<link rel="modulepreload" href="/build/b.js"/></head><p>señal</p>';
    const lowered = withLowPriorityScriptPreloads(Buffer.from(page)).toString();
    expect(lowered).toBe(
      page.replaceAll('rel="modulepreload"', 'rel="modulepreload" fetchpriority="low"'),
    );
    expect(withLowPriorityScriptPreloads(Buffer.from("<p>sin scripts</p>")).toString()).toBe(
      "<p>sin scripts</p>",
    );
  });
});
