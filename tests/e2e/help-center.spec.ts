import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";

// Hydration mismatches and failed message loads show up as console errors.
let consoleErrors: string[] = [];
test.beforeEach(({ page }) => {
  consoleErrors = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
});
test.afterEach(() => {
  expect(consoleErrors, "browser console errors").toEqual([]);
});

const question = (page: Page, slug: string) => page.locator(`details#${slug}`);
const answerOf = (article: Locator) => article.getByTestId("help-answer");

async function search(page: Page, words: string) {
  await page.getByRole("searchbox", { name: "Buscar en el centro de ayuda" }).fill(words);
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page).toHaveURL(
    new RegExp(`[?&]q=${encodeURIComponent(words).replace(/%20/g, "\\+")}`),
  );
}

test("browsing: a category leads to its questions, which open and close without help", async ({
  page,
}) => {
  const response = await page.goto("/help-center");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Conecta Móvil | Centro de ayuda");
  await expect(page.getByRole("heading", { level: 1, name: "Centro de ayuda" })).toBeVisible();

  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  const categories = page.getByRole("navigation", { name: "Categorías" }).getByRole("link");
  await expect(categories).toHaveCount(8);
  expect(await page.getByTestId("help-article").count()).toBeGreaterThanOrEqual(24);

  await categories.filter({ hasText: "Internet, APN y hotspot" }).click();
  await expect(page).toHaveURL(/#categoria-internet-y-apn$/);
  await expect(
    page.getByRole("heading", { level: 2, name: "Internet, APN y hotspot" }),
  ).toBeInViewport();

  const iphone = question(page, "configurar-apn-iphone");
  await expect(answerOf(iphone)).toBeHidden();
  await iphone.locator("summary").click();
  await expect(iphone).toHaveAttribute("open", "");
  await expect(answerOf(iphone)).toBeVisible();
  await expect(answerOf(iphone)).toContainText("internet.conectamovil.mx");
  await expect(answerOf(iphone)).toContainText("Red de datos celulares");
  await expectNoAxeViolations(page);

  await iphone.locator("summary").click();
  await expect(answerOf(iphone)).toBeHidden();
});

test("a search finds answers whatever the case or accents, counts and highlights them", async ({
  page,
}) => {
  await page.goto("/help-center");
  await search(page, "portabilidad");

  const results = page.getByTestId("help-results");
  await expect(
    results.getByRole("heading", { level: 2, name: "Resultados para «portabilidad»" }),
  ).toBeVisible();
  const count = await results.getByTestId("help-article").count();
  expect(count).toBeGreaterThanOrEqual(4);
  await expect(results.getByTestId("help-result-count")).toHaveText(`${count} resultados`);
  await expect(page.getByRole("searchbox", { name: "Buscar en el centro de ayuda" })).toHaveValue(
    "portabilidad",
  );
  // Result pages stay out of search engines; the list of questions does not.
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");

  // Questions whose title matches come before those where only the answer does.
  const titles = await results.getByTestId("help-question").allInnerTexts();
  const firstBodyOnly = titles.findIndex((title) => !/portabilidad/i.test(title));
  expect(titles[0]).toMatch(/portabilidad/i);
  if (firstBodyOnly !== -1) {
    expect(titles.slice(firstBodyOnly).every((title) => !/portabilidad/i.test(title))).toBe(true);
  }
  await expect(results.getByTestId("help-question").first().locator("mark")).toHaveText(
    /^portabilidad$/i,
  );
  await expectNoAxeViolations(page);

  // A result opens in place to its full answer, with the matches still marked.
  const first = results.getByTestId("help-article").first();
  await first.locator("summary").click();
  await expect(answerOf(first)).toBeVisible();
  await expect(answerOf(first).locator("mark").first()).toBeVisible();
});

test("an unaccented or shorter word finds the written form and marks it", async ({ page }) => {
  await page.goto("/help-center?q=telefono");
  const results = page.getByTestId("help-results");
  await expect(results.getByTestId("help-result-count")).toHaveText(/^\d+ resultados?$/);
  await expect(results.locator("mark", { hasText: "teléfono" }).first()).toBeVisible();

  await page.goto("/help-center?q=recarga");
  await expect(page.getByTestId("help-results").getByTestId("help-question").first()).toHaveText(
    "¿Cómo hago una recarga?",
  );
  await expect(
    page
      .getByTestId("help-results")
      .locator("mark", { hasText: /^recargas$/ })
      .first(),
  ).toBeAttached();
});

test("a search without results offers the WhatsApp chat and the categories", async ({ page }) => {
  await page.goto("/help-center");
  await search(page, "zzqx <b>");
  const results = page.getByTestId("help-results");
  await expect(
    results.getByRole("heading", { level: 2, name: "No encontramos respuestas para «zzqx <b>»" }),
  ).toBeVisible();
  await expect(results.getByTestId("help-result-count")).toHaveText("0 resultados");
  await expect(results.getByTestId("help-article")).toHaveCount(0);

  const chat = results.getByRole("link", { name: /Pregúntanos por WhatsApp/ });
  await expect(chat).toBeVisible();
  await expect(chat).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+/);
  await expect(chat).toHaveAttribute("target", "_blank");
  await expect(chat).toHaveAttribute("rel", "noopener noreferrer");
  await expectNoAxeViolations(page);

  await results.getByRole("link", { name: /Portabilidad/ }).click();
  await expect(page).toHaveURL(/\/help-center#categoria-portabilidad$/);
  await expect(page.getByRole("heading", { level: 2, name: "Portabilidad" })).toBeInViewport();
  await expect(page.getByRole("searchbox", { name: "Buscar en el centro de ayuda" })).toHaveValue(
    "",
  );
});

test("a question's own link opens it, also when shared or reloaded", async ({ page }) => {
  await page.goto("/help-center");
  const nip = question(page, "nip-de-portabilidad");
  await nip.locator("summary").click();
  await nip.getByRole("link", { name: "Enlace a esta pregunta" }).click();
  await expect(page).toHaveURL(/\/help-center\?pregunta=nip-de-portabilidad#nip-de-portabilidad$/);

  await page.reload();
  const reloaded = question(page, "nip-de-portabilidad");
  await expect(reloaded).toHaveAttribute("open", "");
  await expect(answerOf(reloaded)).toContainText("051");
  // Only the linked question is open.
  await expect(page.locator("details[data-testid=help-article][open]")).toHaveCount(1);

  // Shared: opened afresh in another tab, the page lands on the question. (After a reload the
  // browser restores its own scroll position instead, which is not the page's to decide.)
  const shared = await page.context().newPage();
  await shared.goto(page.url());
  const opened = question(shared, "nip-de-portabilidad");
  await expect(opened).toHaveAttribute("open", "");
  await expect(answerOf(opened)).toContainText("5 días naturales");
  await expect(opened.locator("summary")).toBeInViewport();
  await expectNoAxeViolations(shared);
  await shared.close();
});

test("opening /help-center#<question> shows that answer open", async ({ page }, testInfo) => {
  test.skip(
    testInfo.project.name === "js-disabled",
    "the server never sees a #fragment; without JavaScript the question links carry ?pregunta=",
  );
  await page.goto("/help-center#vincular-linea-con-curp");
  const curp = question(page, "vincular-linea-con-curp");
  await expect(curp).toHaveAttribute("open", "");
  await expect(answerOf(curp)).toContainText("30 de junio de 2026");
  await expect(curp.locator("summary")).toBeInViewport();
});

test("a search result links to its question in the full list", async ({ page }) => {
  await page.goto("/help-center?q=hotspot");
  const hotspot = page.getByTestId("help-results").locator("details#compartir-datos-hotspot");
  await hotspot.locator("summary").click();
  await hotspot.getByRole("link", { name: "Enlace a esta pregunta" }).click();
  await expect(page).toHaveURL(
    /\/help-center\?pregunta=compartir-datos-hotspot#compartir-datos-hotspot$/,
  );
  await expect(page.getByTestId("help-results")).toHaveCount(0);
  await expect(question(page, "compartir-datos-hotspot")).toHaveAttribute("open", "");
  await expect(question(page, "compartir-datos-hotspot").locator("mark")).toHaveCount(0);
});

test("the help centre opens from the navigation with its texts in place", async ({ page }) => {
  await page.goto("/plans");
  await page
    .getByRole("navigation", { name: "Navegación principal" })
    .getByRole("link", { name: "Centro de ayuda", exact: true })
    .first()
    .click();
  await expect(page).toHaveURL(/\/help-center$/);
  await expect(page.getByRole("heading", { level: 2, name: "Categorías" })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Buscar en el centro de ayuda" })).toBeVisible();
  await expect(page.getByText("4 preguntas").first()).toBeVisible();
});

test("the help centre says what the product does: every page it links answers, saldo at /saldo, invoices at /facturacion, no SMS alerts nobody sends (issue 48)", async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto("/help-center");
  const hrefs = await page
    .getByTestId("help-answer")
    .locator("a[href]")
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  const own = [...new Set(hrefs.filter((href) => href.startsWith(baseURL!)))];
  expect(own.length).toBeGreaterThan(10);
  for (const href of own) {
    const response = await request.get(href);
    expect(response.status(), href).toBeLessThan(400);
  }

  const answers = page.getByTestId("help-answer");
  await expect(answers.filter({ hasText: /avisamos por SMS cuando/ })).toHaveCount(0);
  await expect(answers.filter({ hasText: /80 %/ })).toHaveCount(0);

  const invoices = question(page, "factura-de-recargas");
  await invoices.locator("summary").click();
  await expect(answerOf(invoices)).toContainText(
    "hasta el último día del mes siguiente al de tu pago: por ejemplo, una compra pagada el 15 de noviembre la puedes facturar hasta el 31 de diciembre.",
  );
  await expect(answerOf(invoices)).not.toContainText("dentro del mismo mes");
  await answerOf(invoices).getByRole("link", { name: "Facturación" }).click();
  await expect(page).toHaveURL("/facturacion");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Factura tu compra");

  await page.goto("/help-center?pregunta=consultar-saldo#consultar-saldo");
  const balance = question(page, "consultar-saldo");
  await expect(balance).toHaveAttribute("open", "");
  await expect(answerOf(balance)).toContainText("te avisamos por correo cuando te queda el 10 %");
  await expect(answerOf(balance)).not.toContainText("no aparecen ahí");
  await answerOf(balance).getByRole("link", { name: "Consulta tu saldo" }).click();
  await expect(page).toHaveURL("/saldo");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Consulta tu saldo");
});
