import QRCode from "qrcode";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activationQrSvg } from "./qr.server";
import { createSandboxProvisioner } from "./sandbox-provisioner.server";

const code = "LPA:1$sandbox.smdp.invalid$0123456789ABCDEF0123456789ABCDEF";
const MARGIN = 2;

/**
 * Reads the modules back out of the SVG: `qrcode` draws each dark run of a row as one
 * horizontal stroke, "M<x> <y+0.5>" to start a row, "m<dx> 0" to skip light modules, "h<n>".
 */
function modulesOf(svg: string): boolean[][] {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  const d = /<path stroke="#000000" d="([^"]*)"/.exec(svg)?.[1] ?? "";
  let x = 0;
  let y = 0;
  for (const [, command, a, b] of d.matchAll(/([Mmh])(\d+(?:\.\d+)?)(?: (\d+(?:\.\d+)?))?/g)) {
    if (command === "M") {
      x = Number(a);
      y = Number(b) - 0.5;
    } else if (command === "m") {
      x += Number(a);
    } else {
      for (let column = x; column < x + Number(a); column++) grid[y][column] = true;
      x += Number(a);
    }
  }
  return grid;
}

/** The symbol without its quiet zone, after checking that zone is light all round. */
function symbolOf(grid: boolean[][]): boolean[][] {
  const size = grid.length;
  grid.forEach((row, y) =>
    row.forEach((dark, x) => {
      const inMargin = y < MARGIN || x < MARGIN || y >= size - MARGIN || x >= size - MARGIN;
      if (inMargin) expect(dark, `module ${x},${y} in the quiet zone`).toBe(false);
    }),
  );
  return grid.slice(MARGIN, size - MARGIN).map((row) => row.slice(MARGIN, size - MARGIN));
}

function hasFinderAt(symbol: boolean[][], top: number, left: number): boolean {
  for (let y = 0; y < 7; y++) {
    for (let x = 0; x < 7; x++) {
      const ring = Math.max(Math.abs(y - 3), Math.abs(x - 3));
      if (symbol[top + y][left + x] !== (ring !== 2)) return false;
    }
  }
  return true;
}

/**
 * The 15 format bits (ISO/IEC 18004 §7.9), read from both copies: beside the top-left finder,
 * and split between the other two. Unmasked, the top two bits are the error correction level
 * (M = 00) and the last ten a BCH code of the first five.
 */
function formatInformation(symbol: boolean[][]) {
  const size = symbol.length;
  let first = 0;
  let second = 0;
  for (let i = 0; i < 15; i++) {
    const row = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    const column = i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1;
    if (symbol[row][8]) first |= 1 << i;
    if (symbol[8][column]) second |= 1 << i;
  }
  const unmasked = first ^ 0b101010000010010;
  let remainder = (unmasked >> 10) << 10;
  for (let bit = 14; bit >= 10; bit--) {
    if (remainder & (1 << bit)) remainder ^= 0b10100110111 << (bit - 10);
  }
  return {
    copiesAgree: first === second,
    bchValid: remainder === (unmasked & 0x3ff),
    errorCorrection: ["M", "L", "H", "Q"][unmasked >> 13],
  };
}

describe("activationQrSvg", () => {
  it("returns an inline SVG of paths", async () => {
    const svg = await activationQrSvg(code);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toMatch(/<path [^>]*d="M/);
    expect(svg).toMatch(/viewBox="0 0 \d+ \d+"/);
  });

  it("holds nothing active: no script, event handler, link or foreign content", async () => {
    const svg = await activationQrSvg(code, { label: "Código QR" });
    expect(svg).not.toMatch(/<script|<foreignObject|<a[\s>]|<use|<image|href=|javascript:/i);
    expect(svg).not.toMatch(/\son[a-z]+=/i);
    expect(svg.match(/<[a-z]+/gi)).toEqual(["<svg", "<path", "<path"]);
  });

  it("draws exactly the QR code qrcode computes for the activation code, with a light margin", async () => {
    const symbol = symbolOf(modulesOf(await activationQrSvg(code)));
    const expected = QRCode.create(code, { errorCorrectionLevel: "M" }).modules;
    expect(symbol.length).toBe(expected.size);
    symbol.forEach((row, y) =>
      row.forEach((dark, x) => expect(dark).toBe(Boolean(expected.get(y, x)))),
    );
  });

  it("is a QR code at error correction level M: three finders and valid format bits", async () => {
    const symbol = symbolOf(modulesOf(await activationQrSvg(code)));
    const size = symbol.length;
    expect((size - 17) % 4).toBe(0);
    expect(hasFinderAt(symbol, 0, 0)).toBe(true);
    expect(hasFinderAt(symbol, 0, size - 7)).toBe(true);
    expect(hasFinderAt(symbol, size - 7, 0)).toBe(true);
    expect(formatInformation(symbol)).toEqual({
      copiesAgree: true,
      bchValid: true,
      errorCorrection: "M",
    });
  });

  it("draws a different symbol for another code", async () => {
    const other = "LPA:1$sandbox.smdp.invalid$FEDCBA9876543210FEDCBA9876543210";
    expect(modulesOf(await activationQrSvg(other))).not.toEqual(
      modulesOf(await activationQrSvg(code)),
    );
  });

  it("gives the same SVG for the same code", async () => {
    expect(await activationQrSvg(code)).toBe(await activationQrSvg(code));
  });

  it("names the image when given a label, escaped", async () => {
    const svg = await activationQrSvg(code, { label: 'Tu eSIM "principal" <1> & más' });
    expect(svg).toMatch(
      /^<svg role="img" aria-label="Tu eSIM &quot;principal&quot; &lt;1&gt; &amp; más" /,
    );
    expect(svg).not.toContain("aria-hidden");
  });

  it("hides an unnamed image from assistive technology", async () => {
    const svg = await activationQrSvg(code);
    expect(svg).toContain('aria-hidden="true"');
    expect(svg).not.toContain('role="img"');
    expect(await activationQrSvg(code, { label: "  " })).toContain('aria-hidden="true"');
  });

  it("draws the sandbox's codes", async () => {
    const sandbox = createSandboxProvisioner({
      secret: "unit-test-secret-that-is-long-enough-0123456789",
    });
    const activation = await sandbox.issue({ orderRef: "CM-1", position: 0, generation: 0 });
    const symbol = symbolOf(modulesOf(await activationQrSvg(activation.activationCode)));
    expect(formatInformation(symbol).errorCorrection).toBe("M");
  });

  describe("when the library's output is not the inert shape it has today", () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it.each([
      [
        "a script",
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5"><script>alert(1)</script><path d="M0 0h1"/></svg>',
      ],
      [
        "an event handler",
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" viewBox="0 0 5 5"><path d="M0 0h1"/></svg>',
      ],
      [
        "a handler on a path",
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5"><path d="M0 0h1" onclick="x()"/></svg>',
      ],
      [
        "a link",
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5"><a href="javascript:x()"><path d="M0 0h1"/></a></svg>',
      ],
      [
        "a style",
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5" style="background:url(x)"><path d="M0 0h1"/></svg>',
      ],
      [
        "text outside an attribute",
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5" x><path d="M0 0h1"/></svg>',
      ],
      ["no paths", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5"></svg>'],
    ])("refuses to inline %s", async (_what, forged) => {
      vi.spyOn(QRCode, "toString").mockImplementation((() => Promise.resolve(forged)) as never);
      await expect(activationQrSvg(code)).rejects.toThrow(/unexpected shape/);
    });
  });

  it("refuses anything but an activation code with its LPA: prefix", async () => {
    await expect(activationQrSvg("https://example.com")).rejects.toThrow(TypeError);
    await expect(activationQrSvg("1$sandbox.smdp.invalid$ABC")).rejects.toThrow(TypeError);
    await expect(activationQrSvg("LPA:1$sandbox.smdp.invalid$abc")).rejects.toThrow(TypeError);
    await expect(activationQrSvg("")).rejects.toThrow(TypeError);
  });
});
