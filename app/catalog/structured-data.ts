import { decimalAmount } from "./money";
import type { Plan } from "./plan";

/**
 * schema.org structured data for the plans shown (decision 0141): a Product each, with its Offer
 * in MXN at the catalogue's price (whole pesos, IVA included), as search engines read JSON-LD.
 * Built by a loader from the catalogue; the page only writes it out.
 */
export interface PlanProductLd {
  "@type": "Product";
  "@id": string;
  sku: string;
  name: string;
  brand: { "@type": "Brand"; name: string };
  url: string;
  offers: {
    "@type": "Offer";
    price: string;
    priceCurrency: "MXN";
    availability: "https://schema.org/InStock";
    url: string;
  };
}

export interface PlansLd {
  "@context": "https://schema.org";
  "@graph": PlanProductLd[];
}

export function plansJsonLd(
  plans: readonly Pick<Plan, "id" | "name" | "price">[],
  origin: string,
  brandName: string,
): PlansLd {
  return {
    "@context": "https://schema.org",
    "@graph": plans.map((plan) => {
      const url = `${origin}/plans#plan-${plan.id}`;
      return {
        "@type": "Product",
        "@id": url,
        sku: plan.id,
        name: plan.name,
        brand: { "@type": "Brand", name: brandName },
        url,
        offers: {
          "@type": "Offer",
          price: decimalAmount(plan.price),
          priceCurrency: "MXN",
          // Every plan the catalogue offers is on sale: there is no stock to run out of.
          availability: "https://schema.org/InStock",
          url,
        },
      };
    }),
  };
}

/**
 * The JSON for a `<script type="application/ld+json">`: `<` written as `\u003c`, so no text of the
 * catalogue can close the script element.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
