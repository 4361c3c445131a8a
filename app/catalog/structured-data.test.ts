import { describe, expect, it } from "vitest";
import { decimalAmount } from "./money";
import { jsonLdText, plansJsonLd } from "./structured-data";

describe("plans' structured data", () => {
  it("is a Product per plan with its Offer in MXN at the catalogue's price", () => {
    const ld = plansJsonLd(
      [{ id: "plan-199", name: "Conecta 199", price: 199 }],
      "https://www.conecta.mx",
      "Conecta Móvil",
    );
    expect(ld["@graph"]).toEqual([
      expect.objectContaining({
        "@type": "Product",
        sku: "plan-199",
        name: "Conecta 199",
        url: "https://www.conecta.mx/plans#plan-plan-199",
        offers: expect.objectContaining({
          "@type": "Offer",
          price: "199.00",
          priceCurrency: "MXN",
          availability: "https://schema.org/InStock",
        }),
      }),
    ]);
  });

  it("cannot close its script element", () => {
    const text = jsonLdText({ name: "</script><script>alert(1)</script>" });
    expect(text).not.toContain("<");
    expect(JSON.parse(text)).toEqual({ name: "</script><script>alert(1)</script>" });
  });

  it("writes the price as machines read it, from the one money module", () => {
    expect(decimalAmount(199)).toBe("199.00");
    expect(decimalAmount(1234.5)).toBe("1234.50");
    expect(decimalAmount(0.07)).toBe("0.07");
    expect(decimalAmount(-12.3)).toBe("-12.30");
  });
});
