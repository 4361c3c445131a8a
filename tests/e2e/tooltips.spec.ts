import { expect, test, type Page } from "@playwright/test";
import { cartWith } from "./support/commerce";

// Issue 34, the spec's tooltip row (§9, decision 0109): an icon-only control shows its name in a
// tooltip 700 ms after the pointer rests on it, at once when the pointer moves on to the next
// within 300 ms, and at once on keyboard focus. The tooltips' code is loaded only on a device whose
// pointer hovers, after the first load; without JavaScript the icons keep their names.

const cartLink = (page: Page) => page.getByTestId("cart-link");
const chatLink = (page: Page) =>
  page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", {
    name: "Chatea con nosotros por WhatsApp (se abre en una pestaña nueva)",
  });
const tooltip = (page: Page) => page.getByTestId("tooltip");

/** Once loaded, Radix marks each control with a tooltip with its state. */
const tooltipsReady = (page: Page) =>
  expect(cartLink(page)).toHaveAttribute("data-state", "closed");

async function stopClock(page: Page) {
  // Ten seconds ahead: a loaded machine may take more than one between the two calls.
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 10_000);
}

test.describe("with JavaScript, on a device whose pointer hovers", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "tooltips need JavaScript");

  test("the cart and chat icons: 700 ms, then at once along the row, then 700 ms again", async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto("/plans");
    await tooltipsReady(page);
    await stopClock(page);

    await cartLink(page).hover();
    await page.clock.runFor(699);
    await expect(tooltip(page)).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(tooltip(page)).toBeVisible();
    await expect(tooltip(page)).toContainText("Carrito");

    // On to the next icon: no wait.
    await chatLink(page).hover();
    await page.clock.runFor(1);
    await expect(tooltip(page)).toContainText("Chatea con nosotros por WhatsApp");

    // Away for longer than 300 ms: the next one waits its 700 ms again.
    await page.mouse.move(5, 400, { steps: 5 });
    await page.clock.runFor(350);
    await expect(tooltip(page)).toHaveCount(0);
    await cartLink(page).hover();
    await page.clock.runFor(699);
    await expect(tooltip(page)).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(tooltip(page)).toContainText("Carrito");
  });

  test("the keyboard's focus shows it at once; Escape hides it", async ({ page }) => {
    await page.goto("/plans");
    await tooltipsReady(page);
    await cartLink(page).focus();
    await expect(tooltip(page)).toContainText("Carrito");
    await page.keyboard.press("Escape");
    await expect(tooltip(page)).toHaveCount(0);
  });

  test("the cart's − and + buttons show their names", async ({ page }) => {
    await cartWith(page, "Conecta 100");
    await page.goto("/cart");
    await tooltipsReady(page);
    await page.getByRole("button", { name: /^Agregar uno de/ }).hover();
    await expect(tooltip(page)).toContainText("Conecta 100");
  });
});

test("on a phone the tooltips' code is never loaded", async ({ browser }, testInfo) => {
  test.skip(!testInfo.project.use.javaScriptEnabled, "without JavaScript nothing is loaded");
  const phone = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    locale: "es-MX",
    hasTouch: true,
    isMobile: true,
    viewport: { width: 375, height: 740 },
  });
  try {
    const page = await phone.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => scripts.push(new URL(request.url()).pathname));
    await page.goto("/plans");
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.waitForTimeout(1_500);
    expect(scripts.filter((path) => path.includes("tooltip"))).toEqual([]);
    await expect(cartLink(page)).not.toHaveAttribute("data-state", /.*/);
  } finally {
    await phone.close();
  }
});

test("without JavaScript the icons keep their names, and no tooltip is drawn", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "js-enabled", "with JavaScript: above");
  await page.goto("/plans");
  await expect(cartLink(page)).toHaveAccessibleName("Carrito, 0 artículos");
  await expect(chatLink(page)).toBeVisible();
  await cartLink(page).hover();
  await page.waitForTimeout(800);
  await expect(tooltip(page)).toHaveCount(0);
});
