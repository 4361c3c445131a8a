import { CONFIRMATION_PATHNAME, ORDER_LINK_PATH } from "~/checkout/paths";
import { HELP_ARTICLES } from "~/help/articles.data";
import { HELP_CENTER_PATH, helpQuestionPath } from "~/help/paths";
import { INVOICING_PATH } from "~/invoicing/paths";
import { BALANCE_PATH, SIM_ACTIVATION_PATH } from "~/line/paths";
import { LEGAL_DOCUMENTS, legalDocumentPath } from "~/lib/external-links";
import { PORTABILITY_PATH } from "~/portability/paths";
import {
  ASSISTED_VALIDATION_PATH,
  HOLDER_PROOF_PATHNAME,
  POINTS_OF_SERVICE_PATH,
  REGISTRATION_PATH,
} from "~/registration/paths";
import { TOPUP_PATH } from "~/topup/paths";

/**
 * What search engines are told (decision 0141): the public pages anyone may open and find, and the
 * addresses that are a customer's own (their account, cart, checkout, an order or receipt, whose
 * address is its key) or the site's machinery.
 */

/** The public pages, in the order the sitemap lists them: no account, cart, checkout or sign-in. */
export function publicPaths(): string[] {
  return [
    "/",
    "/plans",
    TOPUP_PATH,
    PORTABILITY_PATH,
    BALANCE_PATH,
    REGISTRATION_PATH,
    ASSISTED_VALIDATION_PATH,
    POINTS_OF_SERVICE_PATH,
    SIM_ACTIVATION_PATH,
    "/pedido",
    HELP_CENTER_PATH,
    ...HELP_ARTICLES.map((article) => helpQuestionPath(article.slug)),
    ...LEGAL_DOCUMENTS.map(legalDocumentPath),
  ];
}

/**
 * Paths no crawler should walk: a prefix each, as robots.txt reads them. `/recarga/` (a receipt,
 * its key in the address) leaves `/recarga` itself open.
 */
export const PRIVATE_PATH_PREFIXES = [
  "/my-account",
  "/cart",
  "/checkout",
  CONFIRMATION_PATHNAME,
  ORDER_LINK_PATH,
  HOLDER_PROOF_PATHNAME,
  `${TOPUP_PATH}/`,
  INVOICING_PATH,
  "/auth/",
  "/no-fui-yo/",
  "/payments/",
  "/sandbox/",
  "/dev/",
  "/gsma/",
  "/metrics",
  "/readyz",
  "/healthz",
  "/build-version",
] as const;

export const SITEMAP_PATH = "/sitemap.xml";

/** `/robots.txt`: every crawler kept out of the private paths, and where the sitemap is. */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    ...PRIVATE_PATH_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    "",
    `Sitemap: ${origin}${SITEMAP_PATH}`,
    "",
  ].join("\n");
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `/sitemap.xml` (sitemaps.org 0.9): each public page's absolute address on `origin`. */
export function sitemapXml(origin: string, paths: readonly string[] = publicPaths()): string {
  const urls = paths.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** How long a crawler or a cache may keep either answer: as the site's other static files. */
export const SITE_MAP_CACHE_CONTROL = "public, max-age=3600";
