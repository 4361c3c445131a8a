/**
 * A remembered device's name as the account lists it ("Chrome en Android"), read from the
 * user agent the browser sent when it was remembered (ConfirmDevice's DeviceName). Only the
 * browser and the system: a user agent says little more that a customer would recognise.
 */

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\bAndroid\b/, "Android"],
  [/\biPad\b/, "iPad"],
  [/\b(?:iPhone|iPod)\b/, "iPhone"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "Mac"],
  [/\bLinux\b/, "Linux"],
];

/** Browser and system, either of which may be unknown (null). */
export function describeUserAgent(userAgent: string): {
  browser: string | null;
  system: string | null;
} {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser, system };
}
