import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { createCustomer } from "./support/customers";

const APP_TITLE = "Conecta Móvil";

const pages = [
  { path: "/", title: APP_TITLE, heading: "Planes de prepago Conecta Móvil" },
  { path: "/plans", title: `${APP_TITLE} | Planes`, heading: "Todos los planes" },
  { path: "/cart", title: `${APP_TITLE} | Carrito`, heading: "Tu carrito" },
  { path: "/help-center", title: `${APP_TITLE} | Centro de ayuda`, heading: "Centro de ayuda" },
  {
    path: "/portabilidad",
    title: `${APP_TITLE} | Portabilidad`,
    heading: "Cámbiate a Conecta Móvil y conserva tu número",
  },
];

for (const { path, title, heading } of pages) {
  test(`${path} shows its heading, title, navigation and footer in Spanish`, async ({ page }) => {
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(title);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();

    const nav = page.getByRole("navigation", { name: "Navegación principal" });
    for (const item of ["Planes", "Mi cuenta", "Portabilidad", "Centro de ayuda"]) {
      await expect(nav.getByRole("link", { name: item, exact: true }).first()).toBeAttached();
    }
    const physicalSim = nav.getByRole("link", { name: /SIM física/ }).first();
    await expect(physicalSim).toHaveAttribute("target", "_blank");
    await expect(physicalSim).toHaveAttribute("rel", "noopener noreferrer");
    await expect(physicalSim).toHaveAttribute(
      "href",
      /^https:\/\/wa\.me\/\d+\?text=.*SIM%20f%C3%ADsica/,
    );
    await expect(nav.getByRole("link", { name: /Carrito, 0 artículos/ })).toBeVisible();
    await expect(nav.getByRole("link", { name: /Chatea con nosotros por WhatsApp/ })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Cerrar sesión" })).toHaveCount(0);

    const footer = page.getByTestId("footer");
    for (const social of ["WhatsApp", "TikTok", "Instagram", "Facebook"]) {
      await expect(footer.getByRole("link", { name: new RegExp(`^${social}`) })).toBeVisible();
    }
    await expect(footer).toContainText("© 2025");
    await expect(footer).toContainText("Ciudad de México");
    await expect(footer.getByRole("link", { name: /Escríbenos por WhatsApp/ })).toBeVisible();
    await expect(footer.getByRole("link", { name: /\(PDF\)/ })).toHaveCount(8);

    await expectNoAxeViolations(page);
    // Hydration mismatches and failed message loads show up here.
    expect(consoleErrors).toEqual([]);
  });
}

test("an unknown path answers 404 inside the layout, naming the path", async ({ page }) => {
  const response = await page.goto("/no-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Página no encontrada" })).toBeVisible();
  await expect(page.getByText("Página no encontrada: /no-existe")).toBeVisible();
  await expect(page).toHaveTitle(`${APP_TITLE} | Página no encontrada`);
  await expect(page.getByTestId("footer")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the eight legal documents download as PDF files", async ({ page, request }) => {
  await page.goto("/");
  const hrefs = await page
    .getByTestId("footer")
    .getByRole("link", { name: /\(PDF\)/ })
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(hrefs).toHaveLength(8);
  for (const href of hrefs) {
    const response = await request.get(href!);
    expect(response.status(), href!).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    const body = await response.body();
    expect(body.subarray(0, 5).toString()).toBe("%PDF-");
    expect(body.length).toBeGreaterThan(2_000);
  }
});

test.describe("on a 375 px wide phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the menu button opens the menu and an item takes the customer there", async ({ page }) => {
    await page.goto("/plans");
    const menu = page.getByTestId("mobile-menu");
    const portability = menu.getByRole("link", { name: "Portabilidad" });
    await expect(portability).toBeHidden();
    await menu.getByText("Menú").click();
    await expect(portability).toBeVisible();
    await portability.click();
    await expect(page).toHaveURL(/\/portabilidad$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("conserva tu número");
    await expect(
      page.getByTestId("mobile-menu").getByRole("link", { name: "Portabilidad" }),
    ).toBeHidden();
    await expectNoAxeViolations(page);
  });
});

test("the first visit sets the language cookie for a year", async ({ page, context }) => {
  await page.goto("/");
  const cookie = (await context.cookies()).find((item) => item.name === "i18n_redirected");
  expect(cookie?.value).toBe("es");
  expect(cookie?.sameSite).toBe("Lax");
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
});

test("the home page bar is sticky and changes as the customer scrolls", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "js-disabled", "scroll styling is an enhancement");
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto("/");
  const bar = page.getByTestId("navbar");
  await expect(bar).toHaveCSS("position", "sticky");
  await expect(bar).toHaveAttribute("data-scroll-stage", "top");
  await page.evaluate(() => {
    document.body.style.minHeight = "3000px";
    window.scrollTo(0, 50);
  });
  await expect(bar).toHaveAttribute("data-scroll-stage", "scrolled");
  await page.evaluate(() => window.scrollTo(0, 150));
  await expect(bar).toHaveAttribute("data-scroll-stage", "deep");
  await page.goto("/plans");
  await expect(page.getByTestId("navbar")).toHaveCSS("position", "fixed");
});

test("health endpoints answer as JSON", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({ status: "ready" });
});

test("a tap on a page that arrived with a message lands where it was aimed while the page turns interactive", async ({
  page,
  request,
}, testInfo) => {
  test.skip(
    testInfo.project.name === "js-disabled",
    "the page turns interactive only with JavaScript",
  );
  const customer = await createCustomer(request, "toque");
  // The toast code, if the page asks for it, arrives only when the test says so: the moment a
  // customer on a slow phone presses the button.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/**toast-stack*", async (route) => {
    await held;
    await route.continue();
  });
  // A protected page sends the visitor to sign-in with a message.
  await page.goto("/my-account/recarga");
  await expect(page.getByTestId("flash")).toHaveText("Inicia sesión para continuar.");
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(customer.password);
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  await page.waitForTimeout(300);
  const button = page.getByRole("button", { name: "Iniciar sesión", exact: true });
  const aimed = (await button.boundingBox())!;
  await page.mouse.move(aimed.x + aimed.width / 2, aimed.y + aimed.height / 2);
  await page.mouse.down();
  release();
  await page.waitForTimeout(500);
  await page.mouse.up();
  await expect(page).toHaveURL("/my-account/recarga");
});
