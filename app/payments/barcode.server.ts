import bwipjs from "bwip-js/node";

/**
 * A Code 128 barcode of a voucher number, as an SVG data URL: drawn on the server, so it shows
 * (and prints) without JavaScript, and needs nothing from another site.
 */
export function code128DataUrl(text: string): string {
  const svg = bwipjs.toSVG({
    bcid: "code128",
    text,
    scale: 2,
    height: 14,
    paddingwidth: 10,
    paddingheight: 4,
    backgroundcolor: "FFFFFF",
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
