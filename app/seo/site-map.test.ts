import { describe, expect, it } from "vitest";
import { HELP_ARTICLES } from "~/help/articles.data";
import { PRIVATE_PATH_PREFIXES, publicPaths, robotsTxt, sitemapXml } from "./site-map";

describe("the sitemap and robots.txt", () => {
  it("lists every public page and help question at the origin given, and no private page", () => {
    const xml = sitemapXml("https://www.conecta.mx");
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
    expect(locs).toContain("https://www.conecta.mx/");
    expect(locs).toContain("https://www.conecta.mx/plans");
    expect(locs).toContain("https://www.conecta.mx/registro-de-linea");
    expect(locs).toContain("https://www.conecta.mx/docs/aviso-de-privacidad.pdf");
    expect(locs).toContain(
      `https://www.conecta.mx/help-center?pregunta=${HELP_ARTICLES[0]!.slug}`.replace(
        /&/g,
        "&amp;",
      ),
    );
    expect(locs).toHaveLength(publicPaths().length);
    for (const path of publicPaths()) {
      expect(
        PRIVATE_PATH_PREFIXES.some((prefix) => path.startsWith(prefix)),
        path,
      ).toBe(false);
    }
  });

  it("keeps crawlers from the private paths and names the sitemap", () => {
    const text = robotsTxt("https://www.conecta.mx");
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/my-account$/m);
    expect(text).toMatch(/^Disallow: \/checkout$/m);
    expect(text).toMatch(/^Disallow: \/recarga\/$/m);
    expect(text).not.toMatch(/^Disallow: \/recarga$/m);
    expect(text).toMatch(/^Sitemap: https:\/\/www\.conecta\.mx\/sitemap\.xml$/m);
  });
});
