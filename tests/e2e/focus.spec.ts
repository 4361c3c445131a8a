import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { cartBadge, planCard, uniqueEmail } from "./support/commerce";
import { createCustomer } from "./support/customers";
import { gotoHydrated } from "./support/hydration";

/**
 * Issue 17: after the server refuses a form, the keyboard's focus is on the error summary (with
 * JavaScript), not on the page's body; without JavaScript the same summary is at the top of the
 * form, and its links lead to the wrong fields' ids.
 */
const scripted = () => test.info().project.use.javaScriptEnabled !== false;

/** Every link of the summary points at an element that exists: `#<id>` of a field. */
async function expectLinksToFields(page: Page) {
  const links = page.getByTestId("error-summary-fields").getByRole("link");
  expect(await links.count()).toBeGreaterThan(0);
  for (const href of await links.evaluateAll((all) => all.map((a) => a.getAttribute("href")))) {
    expect(href).toMatch(/^#.+/);
    await expect(page.locator(`[id="${href!.slice(1)}"]`)).toHaveCount(1);
  }
}

test("a wrong password: the refusal takes the focus (JavaScript) or heads the form", async ({
  page,
}) => {
  const customer = await createCustomer(page.request, "foco");
  // With JavaScript the refusal takes the focus: nothing is typed before the page is hydrated.
  if (scripted()) await gotoHydrated(page, "/auth/sign-in");
  else await page.goto("/auth/sign-in");
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await page.getByLabel("Contraseña", { exact: true }).fill("Incorrecta#2026");
  await page.getByLabel("Contraseña", { exact: true }).press("Enter");
  const summary = page.getByTestId("error-summary");
  await expect(summary).toContainText("Correo o contraseña incorrectos");
  if (scripted()) await expect(summary).toBeFocused();
  // At the top of the form: before the first field.
  const summaryBox = await summary.boundingBox();
  const emailBox = await page.getByLabel("Correo electrónico").boundingBox();
  expect(summaryBox!.y).toBeLessThan(emailBox!.y);
  await expectNoAxeViolations(page);
});

test("fields the server refused are listed at the top of the form, each a link to its field", async ({
  page,
}) => {
  // Without JavaScript the server is the one that checks: its answer lists the wrong fields.
  test.skip(scripted(), "with JavaScript the fields are checked before anything is sent");
  await page.goto("/auth/sign-in");
  await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
  const summary = page.getByTestId("error-summary");
  await expect(summary).toBeVisible();
  await expectLinksToFields(page);
  await expect(summary.getByRole("link", { name: "Correo electrónico" })).toHaveAttribute(
    "href",
    `#${await page.getByLabel("Correo electrónico").getAttribute("id")}`,
  );

  await page.goto("/portabilidad");
  await page
    .getByRole("region", { name: "Solicita tu portabilidad" })
    .getByRole("button", { name: "Enviar solicitud" })
    .click();
  await expect(page.getByTestId("error-summary")).toBeVisible();
  await expectLinksToFields(page);
  await expectNoAxeViolations(page);
});

test("a duplicate portability request: the refusal takes the focus (JavaScript) or heads the form", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const phoneNumber = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const fill = async (target: Page) => {
    const form = target.getByRole("region", { name: "Solicita tu portabilidad" });
    await form.getByLabel("Número a portar (10 dígitos)").fill(phoneNumber);
    await form.getByLabel("NIP de portabilidad (4 dígitos)").fill("1357");
    await form.getByLabel("Nombre completo del titular").fill("Ana Gómez Martínez");
    await form.getByLabel("Correo electrónico").fill(uniqueEmail("foco"));
    await form.getByLabel("CURP").fill("GOMA850312MDFRRN09");
    await form.getByLabel("Compañía actual").selectOption({ label: "Telcel" });
    await form.getByRole("checkbox", { name: /Acepto la política de portabilidad/ }).check();
    await form.getByRole("button", { name: "Enviar solicitud" }).press("Enter");
  };
  await page.goto("/portabilidad");
  await fill(page);
  await expect(page).toHaveURL(/solicitud=POR-/);

  const other = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
  });
  try {
    const second = await other.newPage();
    await second.goto("/portabilidad");
    await fill(second);
    const problem = second.getByTestId("portability-problem");
    await expect(problem).toContainText("ya tiene una solicitud de portabilidad en proceso");
    if (scripted()) await expect(problem).toBeFocused();
    await expect(problem.getByRole("link", { name: /Consulta/ })).toHaveAttribute(
      "href",
      "#consulta",
    );
  } finally {
    await other.close();
  }
});

test("«Agregar al carrito» from the keyboard keeps the focus on the button", async ({ page }) => {
  test.skip(!scripted(), "without JavaScript the form posts and the page reloads");
  await gotoHydrated(page, "/plans");
  const add = planCard(page, "Conecta 100").getByRole("button", { name: "Agregar al carrito" });
  await add.focus();
  const stored = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname === "/cart.data",
  );
  await page.keyboard.press("Enter");
  await stored;
  await expect(cartBadge(page)).toHaveText("1");
  await expect(add).toBeFocused();
  // A second press from the keyboard adds again: nothing was lost.
  await page.keyboard.press("Enter");
  await expect(cartBadge(page)).toHaveText("2");
  await expect(add).toBeFocused();
});

test("a message shown when a field is left does not move the terms checkbox under the tap", async ({
  page,
}) => {
  test.skip(!scripted(), "without JavaScript fields are checked when the form is sent");
  await page.setViewportSize({ width: 375, height: 740 });
  await gotoHydrated(page, "/portabilidad");
  const form = page.getByRole("region", { name: "Solicita tu portabilidad" });
  const terms = form.getByRole("checkbox", { name: /Acepto la política de portabilidad/ });
  for (const [label, value] of [
    ["CURP", "NO-ES-UNA-CURP"],
    ["ICCID de tu nueva SIM", "123"],
  ] as const) {
    await form.getByLabel(label).fill(value);
    await terms.scrollIntoViewIfNeeded();
    // The tap that leaves the field lands on the checkbox.
    await terms.click();
    await expect(terms).toBeChecked();
    await expect(form.getByTestId("field-error").filter({ hasText: /\S/ })).not.toHaveCount(0);
    await terms.uncheck();
  }
});
