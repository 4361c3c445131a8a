import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { PLAN_CATALOGUE } from "../../app/catalog/plans.data";
import { BASE_URL } from "../../playwright.config";
import { pdfText } from "../support/pdf-text";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  fillHolder,
  payWithCard,
  simulateVoucher,
  submitCheckout,
  TEST_CARDS,
  TOPUP_RECEIPT_URL,
  uniqueEmail,
  uniqueHolder,
} from "./support/commerce";

// The storefront's basics (issue 48, decision 0141): robots.txt and the sitemap, the plans'
// structured data, the voucher and receipts as PDF.

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

/** Follows a download link on the page (as a browser does, with or without JavaScript). */
async function downloadOf(page: Page, testId: string) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId(testId).click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), body: await readFile(path) };
}

/** Someone else's browser at the same address: the site's Spanish 404, nothing of the purchase. */
async function strangerIsRefused(browser: Browser, path: string, folio: string) {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  const answer = await page.goto(path);
  expect(answer!.status()).toBe(404);
  expect(answer!.headers()["content-type"]).toMatch(/^text\/html/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
  expect(await answer!.text()).not.toContain(folio);
  await context.close();
}

test("a cash voucher is kept and printed without JavaScript: its PDF, for the order's viewer only, without the CURP", async ({
  page,
  browser,
}) => {
  const holder = uniqueHolder();
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("ficha-pdf"));
  await fillHolder(page, holder);
  await choosePaymentMethod(page, "cash");
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
  const folio = (await page.getByTestId("order-folio").textContent()) ?? "";
  const voucher = page.getByTestId("payment-instructions-cash");
  const reference = (await voucher.getByTestId("payment-reference").textContent()) ?? "";
  const expires = (await voucher.getByTestId("payment-expires").textContent()) ?? "";
  await expect(voucher.getByTestId("payment-pdf")).toHaveText("Descargar la ficha en PDF");

  const { name, body } = await downloadOf(page, "payment-pdf");
  expect(name).toBe(`pedido-${folio}.pdf`);
  expect(body.subarray(0, 5).toString()).toBe("%PDF-");
  const text = pdfText(body);
  expect(text).toContain("Tu ficha para pagar en efectivo");
  expect(text).toContain(reference);
  expect(text).toContain(expires);
  expect(text).toContain("$200.00\u00a0MXN");
  expect(text).toContain(folio);
  expect(body.toString("latin1")).toContain("/Subtype /Image");
  expect(text).not.toContain(holder.curp);

  const pdfPath = new URL(
    (await voucher.getByTestId("payment-pdf").getAttribute("href"))!,
    BASE_URL,
  );
  const answer = await page.request.get(pdfPath.href);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  expect(answer.headers()["cache-control"]).toBe("private, no-store");
  await strangerIsRefused(browser, `${pdfPath.pathname}${pdfPath.search}`, folio);
});

test("a paid order's receipt downloads as a PDF from its page: its plans, total and card, no CURP", async ({
  page,
}) => {
  const holder = uniqueHolder();
  await cartWith(page, "Conecta 300");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("recibo-pdf"));
  await fillHolder(page, holder);
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  const folio = (await page.getByTestId("order-folio").textContent()) ?? "";
  const { name, body } = await downloadOf(page, "order-receipt-pdf");
  expect(name).toBe(`pedido-${folio}.pdf`);
  const text = pdfText(body);
  expect(text).toContain(folio);
  expect(text).toContain("Pagado");
  expect(text).toContain("1 × Conecta 300 ($300)");
  expect(text).toContain("$300.00\u00a0MXN");
  expect(text).toMatch(/Pagado con .+ terminada en \d{4}/);
  expect(text).not.toContain(holder.curp);
  expect(text).not.toContain("Tu ficha");
});

test("a top-up's receipt downloads as a PDF (and its voucher while unpaid); a wrong key is a Spanish 404", async ({
  page,
  browser,
}) => {
  const line = `56${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  await page.goto("/recarga");
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$50(?![\d.,])/ }).check();
  await choosePaymentMethod(page, "cash");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  const folio = (await page.getByTestId("topup-folio").textContent()) ?? "";
  const reference = (await page.getByTestId("payment-reference").textContent()) ?? "";
  const date = (await page.getByTestId("topup-date").textContent()) ?? "";

  const unpaid = pdfText((await downloadOf(page, "payment-pdf")).body);
  expect(unpaid).toContain(reference);
  expect(unpaid).toContain("Pendiente de pago");

  await simulateVoucher(page, /^Simular pago en tienda$/);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  const { name, body } = await downloadOf(page, "topup-receipt-pdf");
  expect(name).toBe(`recarga-${folio}.pdf`);
  const text = pdfText(body);
  expect(text).toContain(folio);
  expect(text).toContain("Pagada");
  expect(text).toContain("$50.00\u00a0MXN");
  expect(text).toContain(date);
  // The line as the page shows it: masked.
  expect(text).not.toContain(line);
  expect(text).toContain(line.slice(-4));

  await strangerIsRefused(browser, "/recarga/AAAAAAAAAAAAAAAAAAAAAA/comprobante", folio);
});
