import type { MetaDescriptor } from "@remix-run/react";

/** "<app title> | <page title>", or the app title alone where a page has none. */
export function pageTitle(appTitle: string, page?: string | null): string {
  return page ? `${appTitle} | ${page}` : appTitle;
}

interface MetaMatch {
  id: string;
  data: unknown;
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
export function titleMeta({
  data,
  matches,
}: {
  data: unknown;
  matches: MetaMatch[];
}): MetaDescriptor[] {
  const root = matches.find((match) => match.id === "root")?.data;
  const appTitle = readString(root, "appTitle") ?? "";
  const descriptors: MetaDescriptor[] = [{ title: pageTitle(appTitle, readString(data, "title")) }];
  const description = readString(data, "description") ?? readString(root, "description");
  if (description) descriptors.push({ name: "description", content: description });
  return descriptors;
}
