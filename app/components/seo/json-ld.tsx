import { jsonLdText } from "~/catalog/structured-data";
import { useNonce } from "~/lib/nonce";

/**
 * Structured data a loader built, as a `<script type="application/ld+json">`: with the answer's
 * CSP nonce, as every script of the page (script-src allows no other inline script).
 */
export function JsonLd({ data }: { data: unknown }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      // Text a loader built from the catalogue, with `<` escaped (jsonLdText).
      dangerouslySetInnerHTML={{ __html: jsonLdText(data) }}
      suppressHydrationWarning
    />
  );
}
