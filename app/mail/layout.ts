import { mailT } from "./mail-text";

/**
 * The parts an e-mail is made of. Each template lists its blocks once and this module writes
 * both the HTML and the plain-text part from them, so the two always say the same thing.
 */
export type Block =
  /** Level 1 opens the e-mail; level 2 heads a part of it (one eSIM of several). */
  | { kind: "heading"; text: string; level?: 1 | 2 }
  | { kind: "paragraph"; text: string; tone?: "muted" | "notice" }
  | { kind: "facts"; rows: Fact[] }
  | { kind: "lines"; heading: string; rows: LineRow[]; total: { label: string; amount: string } }
  | { kind: "list"; items: string[] }
  /** A postal address, one line of the envelope each. */
  | { kind: "address"; heading: string; lines: string[] }
  /** A link the customer should follow, as a button in HTML and the bare address in text. */
  | { kind: "button"; lead: string; label: string; href: string }
  /** An inline image attached with this Content-ID; the text part says what it was. */
  | { kind: "image"; cid: string; alt: string; width: number; height: number; text: string }
  | { kind: "divider" };

export interface Fact {
  label: string;
  value: string;
  /** Numbers to copy or dictate (references, CLABE, codes): monospaced and breakable. */
  mono?: boolean;
}

export interface LineRow {
  description: string;
  amount: string;
}

/** How to reach a person, in every e-mail's footer (omitted when not configured). */
export interface SupportContact {
  email: string;
  whatsappUrl: string;
}

export interface Document {
  subject: string;
  /**
   * The store's public origin: the header shows the logo PNG served there (decision 0071; Gmail
   * shows neither SVG nor data: images). Without one, the brand's name in text.
   */
  origin?: string;
  /** The customer's name for the greeting; none, no greeting. */
  name: string | null;
  blocks: Block[];
  support: SupportContact | null;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Every value written into the HTML part goes through here: names and reasons are typed by people. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** Whether the value is a web address (http or https), the only links an e-mail carries. */
export function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/** Only web addresses become links: a `javascript:` or `data:` value would be a trap in a mail client. */
export function safeHref(url: string): string {
  if (!isWebUrl(url)) throw new Error("An e-mail links only to http(s) addresses");
  return new URL(url).href;
}

/** A Content-ID needs no escaping if it is made of these only (templates build them). */
const CID = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+$/;

const FONT = "Arial, Helvetica, sans-serif";
const INK = "#0f172a";
const MUTED = "#475569";
const PRIMARY = "#15803d";
const RULE = "#e2e8f0";

/** The e-mail logo (scripts/render-brand-images.mjs): 448 x 96 px, shown at half size. */
export const EMAIL_LOGO_PATH = "/brand/logo-email.png";
const EMAIL_LOGO_SIZE = { width: 224, height: 48 };

/** The header: the logo as an image of the store's own address, its alt text styled as the brand. */
function headerHtml(origin: string | undefined): string {
  const name = escapeHtml(mailT("layout.brand"));
  if (!origin || !isWebUrl(origin)) {
    return `<tr><td style="padding:16px 20px;background-color:${PRIMARY};border-radius:8px 8px 0 0;font:bold 20px/1.3 ${FONT};color:#ffffff;">${name}</td></tr>`;
  }
  const src = escapeHtml(safeHref(`${new URL(origin).origin}${EMAIL_LOGO_PATH}`));
  return (
    `<tr><td style="padding:16px 20px 12px;border-top:6px solid ${PRIMARY};border-bottom:1px solid ${RULE};border-radius:8px 8px 0 0;">` +
    `<img src="${src}" width="${EMAIL_LOGO_SIZE.width}" height="${EMAIL_LOGO_SIZE.height}" alt="${name}" ` +
    `style="display:block;border:0;height:auto;max-width:100%;font:bold 22px/48px ${FONT};color:${PRIMARY};"></td></tr>`
  );
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case "heading":
      return block.level === 2
        ? `<h2 style="margin:8px 0 12px;font:bold 18px/1.3 ${FONT};color:${INK};">${escapeHtml(block.text)}</h2>`
        : `<h1 style="margin:0 0 16px;font:bold 22px/1.3 ${FONT};color:${INK};">${escapeHtml(block.text)}</h1>`;
    case "paragraph": {
      const style =
        block.tone === "muted"
          ? `color:${MUTED};font-size:14px;`
          : block.tone === "notice"
            ? `color:#78350f;background-color:#fef3c7;padding:10px 12px;border-radius:6px;`
            : `color:${INK};`;
      return `<p style="margin:0 0 16px;font-family:${FONT};line-height:1.5;${style}">${escapeHtml(block.text)}</p>`;
    }
    case "facts":
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse;">${block.rows
        .map(
          (row) =>
            `<tr><td style="padding:8px 0;border-bottom:1px solid ${RULE};font-family:${FONT};">` +
            `<div style="font-size:13px;color:${MUTED};">${escapeHtml(row.label)}</div>` +
            `<div style="font-size:17px;font-weight:bold;color:${INK};${
              row.mono
                ? "font-family:'Courier New',Courier,monospace;letter-spacing:1px;word-break:break-all;"
                : "word-break:break-word;"
            }">${escapeHtml(row.value)}</div></td></tr>`,
        )
        .join("")}</table>`;
    case "lines":
      return (
        `<h2 style="margin:8px 0 8px;font:bold 17px/1.3 ${FONT};color:${INK};">${escapeHtml(block.heading)}</h2>` +
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse;font-family:${FONT};font-size:15px;color:${INK};">` +
        block.rows
          .map(
            (row) =>
              `<tr><td style="padding:8px 8px 8px 0;border-bottom:1px solid ${RULE};">${escapeHtml(row.description)}</td>` +
              `<td align="right" style="padding:8px 0;border-bottom:1px solid ${RULE};white-space:nowrap;">${escapeHtml(row.amount)}</td></tr>`,
          )
          .join("") +
        `<tr><td style="padding:10px 8px 0 0;font-weight:bold;">${escapeHtml(block.total.label)}</td>` +
        `<td align="right" style="padding:10px 0 0;font-weight:bold;white-space:nowrap;">${escapeHtml(block.total.amount)}</td></tr></table>`
      );
    case "list":
      return `<ul style="margin:0 0 16px;padding-left:20px;font-family:${FONT};line-height:1.5;color:${INK};">${block.items
        .map((item) => `<li style="margin:0 0 6px;">${escapeHtml(item)}</li>`)
        .join("")}</ul>`;
    case "address":
      return (
        `<h2 style="margin:8px 0 8px;font:bold 17px/1.3 ${FONT};color:${INK};">${escapeHtml(block.heading)}</h2>` +
        `<p style="margin:0 0 16px;font-family:${FONT};line-height:1.5;color:${INK};">${block.lines.map(escapeHtml).join("<br>")}</p>`
      );
    case "button":
      return (
        `<p style="margin:0 0 8px;font-family:${FONT};line-height:1.5;color:${INK};">${escapeHtml(block.lead)}</p>` +
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;"><tr>` +
        `<td style="background-color:${PRIMARY};border-radius:6px;">` +
        `<a href="${escapeHtml(safeHref(block.href))}" style="display:inline-block;padding:12px 20px;font:bold 16px/1.2 ${FONT};color:#ffffff;text-decoration:none;">${escapeHtml(block.label)}</a>` +
        `</td></tr></table>`
      );
    case "image":
      if (!CID.test(block.cid)) throw new Error("Not a Content-ID a template makes");
      return (
        `<p style="margin:0 0 16px;">` +
        `<img src="cid:${block.cid}" width="${Math.trunc(block.width)}" height="${Math.trunc(block.height)}" alt="${escapeHtml(block.alt)}" ` +
        `style="display:block;border:0;max-width:100%;height:auto;background-color:#ffffff;"></p>`
      );
    case "divider":
      return `<hr style="margin:8px 0 20px;border:0;border-top:1px solid ${RULE};">`;
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case "heading":
      return `${block.text}\n${(block.level === 2 ? "-" : "=").repeat(Math.min(block.text.length, 60))}`;
    case "paragraph":
      return block.text;
    case "facts":
      return block.rows.map((row) => `${row.label}: ${row.value}`).join("\n");
    case "lines":
      return [
        `${block.heading}:`,
        ...block.rows.map((row) => `- ${row.description}: ${row.amount}`),
        `${block.total.label}: ${block.total.amount}`,
      ].join("\n");
    case "list":
      return block.items.map((item) => `- ${item}`).join("\n");
    case "address":
      return [`${block.heading}:`, ...block.lines].join("\n");
    case "button":
      return `${block.lead}\n${block.label}: ${safeHref(block.href)}`;
    case "image":
      return block.text;
    case "divider":
      return "----";
  }
}

function footerParts(support: SupportContact | null): string[] {
  const parts = [mailT("layout.automatic")];
  if (support) {
    parts.push(
      `${mailT("layout.supportEmail", { email: support.email })} ${mailT("layout.supportWhatsapp", { url: support.whatsappUrl })}`,
    );
  }
  parts.push(`${mailT("common:footer.companyName")} ${mailT("common:footer.address")}`);
  return parts;
}

/**
 * The e-mail around the blocks: one column at most 600 px wide that narrows with the screen
 * (375 px phones included), inline styles only (mail clients drop style sheets), system fonts.
 */
export function renderDocument(document: Document): { html: string; text: string } {
  const blocks: Block[] = [
    ...(document.name !== null
      ? [{ kind: "paragraph" as const, text: mailT("layout.greeting", { name: document.name }) }]
      : []),
    ...document.blocks,
    { kind: "paragraph", text: mailT("layout.signature") },
  ];
  const footer = footerParts(document.support);
  const html =
    `<!DOCTYPE html><html lang="es-MX"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light"><title>${escapeHtml(document.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background-color:#f1f5f9;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f1f5f9;"><tr>` +
    `<td align="center" style="padding:16px 8px;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border-radius:8px;">` +
    headerHtml(document.origin) +
    `<tr><td style="padding:24px 20px 8px;font:16px/1.5 ${FONT};color:${INK};">${blocks.map(blockHtml).join("")}</td></tr>` +
    `<tr><td style="padding:16px 20px 20px;border-top:1px solid ${RULE};font:13px/1.5 ${FONT};color:${MUTED};">` +
    footer.map((part) => `<p style="margin:0 0 8px;">${escapeHtml(part)}</p>`).join("") +
    `</td></tr></table></td></tr></table></body></html>`;
  const text = [mailT("layout.brand"), ...blocks.map(blockText), "--", ...footer].join("\n\n");
  return { html, text: `${text}\n` };
}
