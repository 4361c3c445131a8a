import type { MetaDescriptor } from "react-router";

/** "<app title> | <page title>", or the app title alone where a page has none. */
export function pageTitle(appTitle: string, page?: string | null): string {
  return page ? `${appTitle} | ${page}` : appTitle;
}

interface MetaMatch {
  id: string;
  loaderData: unknown;
}

interface MetaArgsLike {
  loaderData: unknown;
  matches: MetaMatch[];
  location?: { pathname: string };
}

function readString(data: unknown, key: string): string | undefined {
  if (data && typeof data === "object" && key in data) {
    const value = (data as Record<string, unknown>)[key];
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/**
 * The meta function every page shares: the title comes from the page loader's `title` and the
 * app title from the root loader, both already translated on the server.
 */
export function titleMeta({ loaderData: data, matches }: MetaArgsLike): MetaDescriptor[] {
  const root = matches.find((match) => match.id === "root")?.loaderData;
  const appTitle = readString(root, "appTitle") ?? "";
  const descriptors: MetaDescriptor[] = [{ title: pageTitle(appTitle, readString(data, "title")) }];
  const description = readString(data, "description") ?? readString(root, "description");
  if (description) descriptors.push({ name: "description", content: description });
  return descriptors;
}

/** The sharing image (scripts/render-brand-images.mjs): a PNG, since WhatsApp and Facebook show no SVG. */
export const SHARE_IMAGE = { path: "/brand/og-image.png", width: 1200, height: 630 } as const;

/**
 * A public page's meta (decision 0071): the title and description, the canonical address (the
 * configured public origin and the path, without the query: filters and searches are the same
 * page), and the Open Graph and Twitter card tags that WhatsApp, Facebook and X read. Pages that
 * are `noindex` (receipts, account, sign-in steps) use `titleMeta` alone.
 */
export function shareMeta(args: MetaArgsLike): MetaDescriptor[] {
  const descriptors = titleMeta(args);
  const root = args.matches.find((match) => match.id === "root")?.loaderData;
  const origin = readString(root, "origin");
  if (!origin || !args.location) return descriptors;
  const title = pageTitle(readString(root, "appTitle") ?? "", readString(args.loaderData, "title"));
  const description =
    readString(args.loaderData, "description") ?? readString(root, "description") ?? "";
  const url = `${origin}${args.location.pathname}`;
  const image = `${origin}${SHARE_IMAGE.path}`;
  const imageAlt = readString(root, "shareImageAlt") ?? title;
  return [
    ...descriptors,
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: readString(root, "appTitle") ?? title },
    { property: "og:locale", content: "es_MX" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(SHARE_IMAGE.width) },
    { property: "og:image:height", content: String(SHARE_IMAGE.height) },
    { property: "og:image:alt", content: imageAlt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    { name: "twitter:image:alt", content: imageAlt },
  ];
}
