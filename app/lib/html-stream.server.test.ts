import { PassThrough, type Duplex } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement, type ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createHtmlCollector, withLowPriorityScriptPreloads } from "./html-stream.server";

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
  // React 18.3 padded a chunk with NUL bytes where "á" did not fit at its end (react#31134, decision
  // 0047); React 19 does not, so the page is collected as React writes it.
  it("delivers Spanish text whole across React's chunk boundaries, streamed or collected", async () => {
    for (let padding = 0; padding < 16; padding++) {
      const page = countries(padding);
      const whole = renderToString(page);
      const raw = await streamed(page, new PassThrough());
      expect(raw).toBe(whole);
      const collected = await new Promise<string>((resolve, reject) => {
        const { pipe } = renderToPipeableStream(page, {
          onAllReady() {
            pipe(createHtmlCollector((html) => resolve(html.toString("utf8"))));
          },
          onShellError: reject,
        });
      });
      expect(collected).toBe(whole);
      expect(collected).not.toContain("\u0000");
    }
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
