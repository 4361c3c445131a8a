import QRCode from "qrcode";
import { LPA_PREFIX, parseActivationCode } from "./provisioning";

export interface ActivationQrOptions {
  /**
   * The image's accessible name (e.g. "Código QR para instalar tu eSIM"), as an `aria-label`
   * with `role="img"`. Absent, the image is hidden from assistive technology: the page must
   * then give the code in text beside it (it should anyway, for manual entry).
   */
  label?: string;
}

/** Only what `qrcode` writes: an <svg> of <path>s with these attributes, nothing active. */
const SVG_SHAPE = /^<svg ([^<>]*)>((?:<path [^<>]*\/>)+)<\/svg>\s*$/;
const ATTRIBUTE = /([a-zA-Z-]+)="([^"<>&]*)"/g;
const SVG_ATTRIBUTES: Record<string, RegExp> = {
  xmlns: /^http:\/\/www\.w3\.org\/2000\/svg$/,
  viewBox: /^[\d. ]+$/,
  "shape-rendering": /^[a-zA-Z-]+$/,
  width: /^\d+$/,
  height: /^\d+$/,
};
const PATH_ATTRIBUTES: Record<string, RegExp> = {
  d: /^[MmHhVvZz\d. -]*$/,
  fill: /^#[0-9a-fA-F]{6}$/,
  stroke: /^#[0-9a-fA-F]{6}$/,
  "fill-opacity": /^[\d.]+$/,
  "stroke-opacity": /^[\d.]+$/,
};

function attributesAreSafe(text: string, allowed: Record<string, RegExp>): boolean {
  // Every character must belong to a recognised attribute: nothing else hides in between.
  if (text.replace(ATTRIBUTE, "").trim() !== "") return false;
  for (const [, name, value] of text.matchAll(ATTRIBUTE)) {
    if (!Object.hasOwn(allowed, name) || !allowed[name].test(value)) return false;
  }
  return true;
}

/** Throws unless the library's output is the inert shape above (a changed library fails here). */
function assertInertSvg(svg: string): void {
  const match = SVG_SHAPE.exec(svg);
  const paths = match ? (match[2].match(/<path [^<>]*\/>/g) ?? []) : [];
  const safe =
    match !== null &&
    attributesAreSafe(match[1], SVG_ATTRIBUTES) &&
    paths.every((path) => attributesAreSafe(path.slice("<path ".length, -2), PATH_ATTRIBUTES));
  if (!safe) throw new Error("qrcode wrote an SVG of an unexpected shape; refusing to inline it");
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * The QR code of an eSIM activation code ("LPA:1$…", SGP.22 §4.1) as an SVG to inline in the
 * server-rendered page: it shows without JavaScript, and scales with CSS (it has a viewBox
 * and no fixed size; give it a width and keep it on a light background).
 *
 * Error correction M and a two-module quiet zone, as agreed; the SVG paints that margin white
 * itself, so it holds on a dark page too. The output is deterministic (same code, same SVG)
 * and checked to be nothing but shapes before it is returned.
 *
 * Rejects with a TypeError for anything but a well-formed activation code with its "LPA:"
 * prefix, so the page never shows a QR code a phone would refuse.
 */
export async function activationQrSvg(
  activationCode: string,
  options: ActivationQrOptions = {},
): Promise<string> {
  if (!activationCode.startsWith(LPA_PREFIX) || !parseActivationCode(activationCode)) {
    throw new TypeError("not an SGP.22 activation code with its LPA: prefix");
  }
  const svg = await QRCode.toString(activationCode, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
  });
  assertInertSvg(svg);
  const accessibility =
    options.label !== undefined && options.label.trim() !== ""
      ? `role="img" aria-label="${escapeAttribute(options.label)}"`
      : `aria-hidden="true"`;
  return svg.trim().replace(/^<svg /, `<svg ${accessibility} focusable="false" `);
}
