// What a customer reads on the pages, taken from the server-rendered HTML (every form works
// without JavaScript, so the HTML holds everything a journey needs).

const decodeEntities = (text) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The value of the hidden (or any) input with this name, or null. */
export function inputValue(html, name) {
  const input = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0];
  const value = input ? /\bvalue="([^"]*)"/.exec(input)?.[1] : undefined;
  return value === undefined ? null : decodeEntities(value);
}

/** Every value of the inputs with this name (radio choices, one per plan card…). */
export function inputValues(html, name) {
  const inputs = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`, "g")) ?? [];
  return inputs.flatMap((input) => {
    const value = /\bvalue="([^"]*)"/.exec(input)?.[1];
    return value === undefined ? [] : [decodeEntities(value)];
  });
}

/** The text of the element with this data-testid (its first text node), or null. */
export function testIdText(html, testId) {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html);
  return match ? decodeEntities(match[1]).trim() : null;
}

/**
 * The whole text of the element with this data-testid, markup and React's text separators
 * (`<!-- -->`) removed, up to its first closing tag of a text element; null when absent.
 */
export function testIdContent(html, testId) {
  const match = new RegExp(
    `data-testid="${testId}"[^>]*>([\\s\\S]*?)</(?:p|span|dd|h[1-6]|li)>`,
  ).exec(html);
  if (!match) return null;
  return decodeEntities(match[1].replace(/<!--[\s\S]*?-->|<[^>]+>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether the page has an element with this data-testid. */
export function hasTestId(html, testId) {
  return html.includes(`data-testid="${testId}"`);
}

/** The href of the link with this data-testid, or null. */
export function testIdHref(html, testId) {
  const link = new RegExp(`<a\\b[^>]*\\bdata-testid="${testId}"[^>]*>`).exec(html)?.[0];
  const href = link ? /\bhref="([^"]*)"/.exec(link)?.[1] : undefined;
  return href === undefined ? null : decodeEntities(href);
}

/** "$1,299.00" → 1299 (whole pesos, as the store keeps them). */
export function parseMoney(text) {
  if (!text) return null;
  const amount = Number(text.replace(/[^\d.]/g, ""));
  return Number.isFinite(amount) ? Math.round(amount) : null;
}

/** The cart page's lines: plan id → quantity. */
export function cartLines(html) {
  const lines = new Map();
  for (const match of html.matchAll(
    /data-testid="cart-line"[^>]*data-plan-id="([^"]+)"[\s\S]*?data-testid="line-quantity">(\d+)</g,
  )) {
    lines.set(decodeEntities(match[1]), Number(match[2]));
  }
  return lines;
}

/** The plans on /plans, from their "add to cart" forms. */
export function planIds(html) {
  return [...new Set(inputValues(html, "id"))];
}

/** What an error page or a refused form says (its alerts), as short text for the report. */
export function alertText(html) {
  const alerts = [...html.matchAll(/role="alert"[^>]*>([\s\S]*?)<\/(?:div|p|section)>/g)].map(
    (match) =>
      decodeEntities(match[1].replace(/<[^>]+>/g, " "))
        .replace(/\s+/g, " ")
        .trim(),
  );
  const text = alerts.filter(Boolean).join(" / ");
  if (text) return text.slice(0, 200);
  // Not a page: a plain-text refusal (403, 413, 415…).
  return html.startsWith("<") ? "" : html.slice(0, 200);
}
