import { expect, test, type Page } from "@playwright/test";
import { PLAN_CATALOGUE } from "../../app/catalog/plans.data";
import { BASE_URL } from "../../playwright.config";

// The storefront's basics (issue 48, decision 0141): robots.txt and the sitemap, the plans'
// structured data.

test("robots.txt keeps crawlers from the private paths and names the sitemap", async ({
  request,
}) => {
  const answer = await request.get("/robots.txt");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(answer.headers()["cache-control"]).toBe("public, max-age=3600");
  const text = await answer.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  for (const path of ["/my-account", "/checkout", "/cart", "/confirmation", "/auth/"]) {
    expect(text).toContain(`Disallow: ${path}\n`);
  }
  expect(text).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`);
});

test("the sitemap lists the public pages at the public origin, and they answer", async ({
  request,
}) => {
  const answer = await request.get("/sitemap.xml");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toMatch(/^application\/xml/);
  expect(answer.headers()["cache-control"]).toBe("public, max-age=3600");
  const xml = await answer.text();
  expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) =>
    match[1]!.replace(/&amp;/g, "&"),
  );
  for (const path of [
    "/",
    "/plans",
    "/help-center",
    "/portabilidad",
    "/recarga",
    "/saldo",
    "/registro-de-linea",
    "/docs/tarifas.pdf",
  ]) {
    expect(locs).toContain(`${BASE_URL}${path}`);
  }
  expect(locs.some((loc) => loc.startsWith(`${BASE_URL}/help-center?pregunta=`))).toBe(true);
  for (const loc of locs) {
    expect(loc.startsWith(`${BASE_URL}/`), loc).toBe(true);
    expect(loc).not.toMatch(/\/(my-account|checkout|cart|confirmation|auth)\b/);
  }
  // Each page listed is there (a few of them: every one is a page or a file of this build).
  for (const loc of [locs[0]!, locs[1]!, locs.find((each) => each.includes("pregunta="))!]) {
    expect((await request.get(loc)).status(), loc).toBe(200);
  }
});

async function structuredPlans(page: Page) {
  const scripts = page.locator('script[type="application/ld+json"]');
  await expect(scripts).toHaveCount(1);
  // The answer's CSP nonce is on it: a strict script-src would refuse it otherwise.
  const csp = (await page.request.get(page.url())).headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-/);
  const data = JSON.parse((await scripts.textContent()) ?? "") as {
    "@context": string;
    "@graph": Array<{
      "@type": string;
      sku: string;
      name: string;
      offers: { "@type": string; price: string; priceCurrency: string; availability: string };
    }>;
  };
  expect(data["@context"]).toBe("https://schema.org");
  return data["@graph"];
}

test("each plan on /plans and on the home page carries its Product and Offer in MXN", async ({
  page,
}) => {
  const answer = await page.goto("/plans");
  expect(await answer!.text()).toMatch(
    /<script type="application\/ld\+json" nonce="[A-Za-z0-9+/=_-]{16,}">/,
  );
  const products = await structuredPlans(page);
  await expect(page.getByTestId("plan-card")).toHaveCount(products.length);
  expect(products.length).toBeGreaterThan(0);
  for (const product of products) {
    const plan = PLAN_CATALOGUE.find((each) => each.id === product.sku);
    expect(plan, product.sku).toBeDefined();
    expect(product["@type"]).toBe("Product");
    expect(product.name).toBe(plan!.name);
    expect(product.offers["@type"]).toBe("Offer");
    expect(Number(product.offers.price)).toBe(plan!.price);
    expect(product.offers.priceCurrency).toBe("MXN");
    expect(product.offers.availability).toBe("https://schema.org/InStock");
  }
  // Filtered, only the plans shown.
  await page.goto("/plans?sim_type=esim");
  const filtered = await structuredPlans(page);
  await expect(page.getByTestId("plan-card")).toHaveCount(filtered.length);

  await page.goto("/");
  const home = await structuredPlans(page);
  expect(home.length).toBeGreaterThan(0);
  for (const product of home) {
    const plan = PLAN_CATALOGUE.find((each) => each.id === product.sku)!;
    expect(Number(product.offers.price)).toBe(plan.price);
    expect(product.offers.priceCurrency).toBe("MXN");
  }
});
