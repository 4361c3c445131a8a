// Draws the brand's files from app/brand/brand.json and the Spanish messages, and renders the
// PNG files in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium): WhatsApp, Facebook,
// Gmail and iOS do not show SVG images. Output (committed, served from public/):
//   public/favicon.svg, public/favicon.ico (32 x 32), public/apple-touch-icon.png (180 x 180),
//   public/brand/icon-192.png, icon-512.png, logo.svg, logo-email.png (448 x 96, shown at
//   224 x 48), og-image.svg and og-image.png (1200 x 630), public/site.webmanifest.
// Run after changing the drawing or the title: `node scripts/render-brand-images.mjs`.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import chromiumFlags from "./chromium-flags.json" with { type: "json" };

const root = path.resolve(".");
const brand = JSON.parse(readFileSync(path.join(root, "app/brand/brand.json"), "utf8"));
const common = JSON.parse(readFileSync(path.join(root, "public/locales/es/common.json"), "utf8"));
const { colors, mark } = brand;
const title = common.app.title;
const tagline = common.app.tagline;
const [firstWord, ...rest] = title.split(" ");
const FONT = "'Liberation Sans', 'DejaVu Sans', Arial, Helvetica, sans-serif";

const escape = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/** The mark's shapes at `size` px from (x, y); `tile` false leaves the tile out. */
function markShapes(x, y, size, { tile = true } = {}) {
  const scale = size / mark.size;
  return (
    `<g transform="translate(${x} ${y}) scale(${scale})">` +
    (tile ? `<path d="${mark.tile}" fill="${colors.primary}"/>` : "") +
    `<path d="${mark.dot}" fill="${colors.onPrimary}"/>` +
    `<g fill="none" stroke-width="${mark.strokeWidth}" stroke-linecap="round">` +
    `<path d="${mark.innerArc}" stroke="${colors.onPrimary}"/>` +
    `<path d="${mark.outerArc}" stroke="${colors.arcAccent}"/></g></g>`
  );
}

const svg = (width, height, body, label) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"${
    label ? ` role="img" aria-label="${escape(label)}"` : ""
  }>${label ? `<title>${escape(label)}</title>` : ""}${body}</svg>\n`;

const favicon = svg(mark.size, mark.size, markShapes(0, 0, mark.size), title);

/** App icons fill their square (the platform rounds or masks the corners). */
const appIcon = (size) =>
  svg(
    size,
    size,
    `<rect width="${size}" height="${size}" fill="${colors.primary}"/>${markShapes(size * 0.16, size * 0.16, size * 0.68, { tile: false })}`,
  );

const wordmark = (x, baseline, fontSize, light = true) =>
  `<text x="${x}" y="${baseline}" font-family="${FONT}" font-size="${fontSize}" font-weight="700" letter-spacing="-0.5">` +
  `<tspan fill="${light ? colors.primaryDark : colors.onPrimary}">${escape(firstWord)}</tspan>` +
  `<tspan fill="${light ? colors.secondary : colors.onDarkAccent}"> ${escape(rest.join(" "))}</tspan></text>`;

const logo = svg(224, 48, markShapes(0, 4, 40) + wordmark(50, 33, 24), title);

const og = svg(
  1200,
  630,
  `<rect width="1200" height="630" fill="#ffffff"/>` +
    `<rect width="1200" height="24" fill="${colors.primary}"/>` +
    `<rect y="606" width="1200" height="24" fill="${colors.secondary}"/>` +
    markShapes(96, 170, 160) +
    wordmark(290, 285, 104) +
    `<text x="96" y="430" font-family="${FONT}" font-size="42" fill="#0f172a">${escape(tagline)}</text>`,
  title,
);

function icoFromPng(png, size) {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // offset of the PNG
  return Buffer.concat([header, png]);
}

const out = (relative) => path.join(root, "public", relative);
mkdirSync(out("brand"), { recursive: true });
writeFileSync(out("favicon.svg"), favicon);
writeFileSync(out("brand/logo.svg"), logo);
writeFileSync(out("brand/og-image.svg"), og);
writeFileSync(
  out("site.webmanifest"),
  `${JSON.stringify(
    {
      name: title,
      short_name: title,
      description: tagline,
      lang: "es-MX",
      start_url: "/",
      display: "browser",
      background_color: "#ffffff",
      theme_color: colors.primary,
      icons: [
        { src: "/brand/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/brand/icon-512.png", sizes: "512x512", type: "image/png" },
        { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
      ],
    },
    null,
    2,
  )}\n`,
);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: chromiumFlags,
});
try {
  const page = await browser.newPage();
  /** Renders an SVG document to a PNG of exactly width x height CSS px at `scale` device px each. */
  async function render(source, width, height, scale = 1, transparent = false) {
    await page.setViewportSize({ width, height });
    const html = `<!DOCTYPE html><html><head><style>html,body{margin:0;background:transparent}svg{display:block;width:${width}px;height:${height}px}</style></head><body>${source}</body></html>`;
    await page.setContent(html);
    const clip = { x: 0, y: 0, width, height };
    if (scale === 1) return page.screenshot({ clip, omitBackground: transparent });
    const context = await browser.newContext({
      deviceScaleFactor: scale,
      viewport: { width, height },
    });
    const scaled = await context.newPage();
    await scaled.setContent(html);
    const png = await scaled.screenshot({ clip, omitBackground: transparent });
    await context.close();
    return png;
  }
  writeFileSync(out("favicon.ico"), icoFromPng(await render(favicon, 32, 32, 1, true), 32));
  writeFileSync(out("apple-touch-icon.png"), await render(appIcon(180), 180, 180));
  writeFileSync(out("brand/icon-192.png"), await render(appIcon(192), 192, 192));
  writeFileSync(out("brand/icon-512.png"), await render(appIcon(512), 512, 512));
  writeFileSync(out("brand/logo-email.png"), await render(logo, 224, 48, 2, true));
  writeFileSync(out("brand/og-image.png"), await render(og, 1200, 630));
} finally {
  await browser.close();
}
console.log("brand images written to public/ and public/brand/");
