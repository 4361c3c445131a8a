import type { LoaderFunctionArgs } from "react-router";
import { outboxHtmlWithImages, readOutbox } from "~/mail/transport.server";
import { requestContext } from "~/lib/router-context.server";

/**
 * Development only: one captured e-mail's HTML, as a mail client shows it. It is the e-mail's
 * own markup, so it is served on its own with a policy that runs nothing and loads nothing but
 * its inline images and styles.
 */
export async function loader({ params, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const dir = context.config.isProduction ? null : context.mailOutboxDir;
  const id = params.id ?? "";
  const mail = dir
    ? (await readOutbox(dir, { limit: 2_000 })).find((message) => message.id === id)
    : undefined;
  if (!mail) return new Response(null, { status: 404 });
  return new Response(outboxHtmlWithImages(mail), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
