import type { LoaderFunctionArgs } from "react-router";
import { requestContext } from "~/lib/router-context.server";
import { SITE_MAP_CACHE_CONTROL, sitemapXml } from "~/seo/site-map";

/** `/sitemap.xml`: the public pages at the configured public origin (decision 0141). */
export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const { config } = routerContext.get(requestContext);
  return new Response(sitemapXml(config.publicOrigin), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": SITE_MAP_CACHE_CONTROL,
    },
  });
}
