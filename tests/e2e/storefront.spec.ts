import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { addPlan, planCard } from "./support/commerce";

// Issue 17: the home page as a storefront, plans by price with a comparison table, the brand
// in header and footer, and the sharing tags of every public page (decision 0071).

const priceOf = (text: string) => Number(text.replace(/[^\d.]/g, ""));

test("the home page shows the main offer, three featured plans, the entry points and trust signals", async ({
  page,
}) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);

  const hero = page.getByTestId("home-hero");
  await expect(hero.getByRole("heading", { level: 1 })).toHaveText(
    "Planes de prepago Conecta Móvil",
  );
  const offer = hero.getByTestId("home-offer");
  await expect(offer.getByRole("heading", { level: 2 })).toHaveText("Conecta 200");
  // The offer's price comes from the catalogue, written by the one money rule.
  await expect(offer.getByTestId("offer-price")).toHaveText("$200");
  await expect(offer).toContainText("IVA incluido");
  await expect(offer.getByRole("button", { name: "Agregar Conecta 200 al carrito" })).toBeVisible();

  const featured = page.getByTestId("home-featured").getByTestId("plan-card");
  await expect(featured).toHaveCount(3);
  await expect(page.getByText("Más popular", { exact: true })).toHaveCount(1);
  await expect(planCard(page, "Conecta 200").getByTestId("popular-badge")).toHaveText(
    "Más popular",
  );
  const prices = await featured.locator("span.text-3xl").allTextContents();
  expect(prices.map(priceOf)).toEqual([...prices.map(priceOf)].sort((a, b) => a - b));

  const shortcuts = page.getByTestId("home-shortcuts");
  await expect(shortcuts.getByRole("link", { name: "Recargar" })).toHaveAttribute(
    "href",
    "/recarga",
  );
  await expect(shortcuts.getByRole("link", { name: "Solicitar portabilidad" })).toHaveAttribute(
    "href",
    "/portabilidad",
  );
  await expect(shortcuts.getByRole("link", { name: "Ver planes con eSIM" })).toHaveAttribute(
    "href",
    "/plans?sim_type=esim",
  );

  // The line registration's notice: its dates are the rule's (app/registration/registration-rules.ts).
  const registration = page.getByTestId("home-registration");
  await expect(registration).toContainText("Desde el 9 de enero de 2026");
  await expect(registration).toContainText("desde el 1 de julio de 2026");
  await expect(registration.getByRole("link", { name: "Registrar mi línea" })).toHaveAttribute(
    "href",
    "/registro-de-linea",
  );

  const trust = page.getByTestId("home-trust");
  await expect(trust).toContainText("Sin plazos forzosos");
  await expect(trust).toContainText("Cobertura 4G LTE");
  await expect(trust.getByRole("link", { name: /Escríbenos por WhatsApp/ })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\//,
  );
  await expectNoAxeViolations(page);
});

test("the main offer goes into the cart from the hero", async ({ page }) => {
  await page.goto("/");
  const stored = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" &&
      /^\/cart(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await page.getByRole("button", { name: "Agregar Conecta 200 al carrito" }).click();
  await stored;
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await addPlan(page, "Conecta 150", 2);
});

test.describe("on a 375 px phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  async function expectNoSidewaysScroll(page: Page) {
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  }

  test("the home page is a storefront, not the whole catalogue, and the name does not wrap", async ({
    page,
  }) => {
    await page.goto("/");
    await expectNoSidewaysScroll(page);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    // It was 5,634 px with every plan on it.
    expect(height).toBeLessThan(4800);
    // At 375 px the header shows the mark alone (its link names it); the footer has the name.
    const header = page.getByTestId("navbar");
    await expect(header.getByTestId("brand-logo").locator("svg")).toBeVisible();
    await expect(header.getByTestId("brand-wordmark")).toBeHidden();
    await expect(page.getByTestId("footer").getByTestId("brand-wordmark")).toBeVisible();
    // From 410 px the name shows, on one line, and still nothing overflows.
    await page.setViewportSize({ width: 414, height: 740 });
    const wordmark = header.getByTestId("brand-wordmark");
    await expect(wordmark).toBeVisible();
    // One line of text (a 16 px font is about 24 px high): the name never wraps.
    expect((await wordmark.boundingBox())!.height).toBeLessThan(32);
    await expectNoSidewaysScroll(page);
  });

  test("the comparison table scrolls inside its own box, not the page", async ({ page }) => {
    await page.goto("/plans");
    const scroller = page.getByTestId("plan-comparison-scroller");
    await expect(scroller).toBeVisible();
    const sizes = await scroller.evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });
});

test("plans are listed from the cheapest, and the comparison table lists every plan", async ({
  page,
}) => {
  await page.goto("/plans");
  const names = await page.getByTestId("plan-card").getByRole("heading").allTextContents();
  expect(names).toHaveLength(8);
  const cardPrices = (
    await page.getByTestId("plan-card").locator("span.text-3xl").allTextContents()
  ).map(priceOf);
  expect(cardPrices).toEqual([...cardPrices].sort((a, b) => a - b));

  const table = page.getByTestId("plan-comparison").getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Precio (IVA incluido)" })).toBeVisible();
  const rows = table.getByRole("rowheader");
  await expect(rows).toHaveCount(8);
  expect(await rows.allTextContents()).toEqual(names);
  const rowPrices = (
    await table.getByTestId("comparison-row").locator("td:first-of-type").allTextContents()
  ).map(priceOf);
  expect(rowPrices).toEqual(cardPrices);
  await expect(table.getByRole("cell", { name: "$2,399" })).toBeVisible();

  // Filtered, the table compares what the filter leaves.
  await page.goto("/plans?sim_type=esim");
  await expect(page.getByTestId("plan-comparison").getByRole("rowheader")).toHaveCount(
    await page.getByTestId("plan-card").count(),
  );
});

test("the logo is in the header (a link home) and in the footer", async ({ page }) => {
  await page.goto("/plans");
  const home = page.getByTestId("navbar").getByRole("link", { name: "Conecta Móvil, inicio" });
  await expect(home.getByTestId("brand-logo")).toBeVisible();
  await expect(home.locator("svg")).toBeVisible();
  const footerLogo = page.getByTestId("footer").getByTestId("brand-logo");
  await expect(footerLogo).toBeVisible();
  await expect(footerLogo).toContainText("Conecta Móvil");
  await expect(page.locator('link[rel="icon"][href="/favicon.svg"]')).toHaveCount(1);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
    "href",
    "/apple-touch-icon.png",
  );
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/site.webmanifest");
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(body: Buffer) {
  expect(body.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

test.describe("sharing", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTML head checks run once");

  const publicPages = [
    { path: "/", title: "Conecta Móvil" },
    { path: "/plans", title: "Conecta Móvil | Planes" },
    { path: "/recarga", title: "Conecta Móvil | Recarga" },
    { path: "/portabilidad", title: "Conecta Móvil | Portabilidad" },
    { path: "/help-center", title: "Conecta Móvil | Centro de ayuda" },
    { path: "/puntos-de-atencion", title: "Conecta Móvil | Puntos de atención" },
  ];

  for (const { path, title } of publicPages) {
    test(`${path} carries Open Graph, Twitter card and canonical tags`, async ({
      page,
      request,
    }) => {
      await page.goto(`${path}${path === "/plans" ? "?sim_type=esim" : ""}`);
      const head = page.locator("head");
      const meta = (key: string) =>
        head.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute("content");
      const canonical = await head.locator('link[rel="canonical"]').getAttribute("href");
      // The configured public origin and the path, without the filters.
      expect(new URL(canonical!).pathname).toBe(path);
      expect(canonical).toMatch(/^https?:\/\//);
      expect(await meta("og:url")).toBe(canonical);
      expect(await meta("og:title")).toBe(title);
      expect(await meta("og:type")).toBe("website");
      expect(await meta("og:locale")).toBe("es_MX");
      const description = (await meta("og:description"))!;
      expect(description.length).toBeGreaterThan(40);
      expect(description).toMatch(/[áéíóúñ]|\b(de|con|y|tu)\b/);
      expect(await meta("og:image:width")).toBe("1200");
      expect(await meta("og:image:height")).toBe("630");
      expect(await meta("og:image:alt")).toContain("Conecta Móvil");
      expect(await meta("twitter:card")).toBe("summary_large_image");
      expect(await meta("twitter:title")).toBe(title);
      const image = (await meta("og:image"))!;
      expect(image).toMatch(/^https?:\/\/[^/]+\/brand\/og-image\.png$/);
      expect(await meta("twitter:image")).toBe(image);

      // The image answers from this server (same path as the configured origin's).
      const answer = await request.get(new URL(image).pathname);
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-type"]).toBe("image/png");
      expect(pngSize(await answer.body())).toEqual({ width: 1200, height: 630 });
    });
  }

  test("receipts, account pages and searches stay noindex, without a sharing card", async ({
    page,
  }) => {
    await page.goto("/help-center?q=recarga");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page.locator('meta[property="og:image"]')).toHaveCount(0);
    await page.goto("/recarga/no-existe");
    await expect(page.locator('meta[property="og:image"]')).toHaveCount(0);
  });

  test("the icons and the manifest are served", async ({ request }) => {
    for (const [path, type, size] of [
      ["/apple-touch-icon.png", "image/png", 180],
      ["/brand/icon-192.png", "image/png", 192],
      ["/brand/icon-512.png", "image/png", 512],
    ] as const) {
      const answer = await request.get(path);
      expect(answer.status(), path).toBe(200);
      expect(answer.headers()["content-type"]).toBe(type);
      expect(pngSize(await answer.body())).toEqual({ width: size, height: size });
    }
    const ico = await request.get("/favicon.ico");
    expect(ico.status()).toBe(200);
    const manifest = await (await request.get("/site.webmanifest")).json();
    expect(manifest.name).toBe("Conecta Móvil");
    expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual(
      expect.arrayContaining(["192x192", "512x512"]),
    );
    const logo = await request.get("/brand/logo-email.png");
    expect(logo.status()).toBe(200);
    expect(logo.headers()["content-type"]).toBe("image/png");
  });
});
