import type { LoaderFunctionArgs } from "react-router";
import { requestContext } from "~/lib/router-context.server";
import { robotsTxt, SITE_MAP_CACHE_CONTROL } from "~/seo/site-map";

/** `/robots.txt`: the private paths kept from crawlers, and the sitemap (decision 0141). */
export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const { config } = routerContext.get(requestContext);
  return new Response(robotsTxt(config.publicOrigin), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": SITE_MAP_CACHE_CONTROL,
    },
  });
}
