import { expect, test, type Locator } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { expectNoAxeViolations } from "./support/axe";
import {
  addPlan,
  cartBadge,
  cartWith,
  fillCheckout,
  holderFormFields,
  payWithCard,
  planCard,
  submitCheckout,
  TEST_CARDS,
  uniqueEmail,
} from "./support/commerce";

test("a customer browses, edits the cart, fixes the checkout form, pays and sees the confirmation", async ({
  page,
}, testInfo) => {
  // The whole purchase with an accessibility check on every page: long on a shared machine.
  test.setTimeout(180_000);
  const withoutJs = testInfo.project.name === "js-disabled";

  await page.goto("/");
  // The home page features three plans; the whole catalogue is on /plans.
  await expect(page.getByTestId("plan-card")).toHaveCount(3);
  await expectNoAxeViolations(page);
  await addPlan(page, "Conecta 150", 1);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole("link", { name: "Ver y filtrar todos los planes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Todos los planes" })).toBeVisible();
  await page.getByLabel("Vigencia").selectOption({ label: "30 días" });
  await page.getByLabel("Datos mínimos").selectOption({ label: "10 GB o más" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/validity_days=30/);
  await expect(page.getByTestId("plan-count")).toHaveText("3 planes encontrados");
  await expect(planCard(page, "Conecta 150")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await addPlan(page, "Conecta 200", 2);
  await addPlan(page, "Conecta 300", 3);
  // The customer stays on the filtered list.
  await expect(page).toHaveURL(/validity_days=30/);
  await page.getByRole("link", { name: "Quitar filtros" }).click();
  await addPlan(page, "Conecta 50", 4);

  await page.getByTestId("cart-link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Tu carrito" })).toBeVisible();
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(4);
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Agregar uno de Conecta 150" }).click();
  await expect(lines.filter({ hasText: "Conecta 150" }).getByTestId("line-quantity")).toHaveText(
    "2",
  );
  await expect(lines.filter({ hasText: "Conecta 150" }).getByTestId("line-total")).toHaveText(
    "$300",
  );
  await page.getByRole("button", { name: "Quitar uno de Conecta 50" }).click();
  await expect(lines.filter({ hasText: "Conecta 50" })).toHaveCount(0);
  await page.getByRole("button", { name: "Quitar Conecta 300 del carrito" }).click();
  await expect(lines).toHaveCount(2);
  await expect(page.getByTestId("cart-total")).toHaveText("$500.00 MXN");
  await expect(page.getByTestId("cart-summary-count")).toHaveText("3 planes");
  await expect(cartBadge(page)).toHaveText("3");

  await page.getByRole("link", { name: "Continuar al pago" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Finaliza tu compra" })).toBeVisible();
  await expect(page.getByTestId("checkout-total")).toHaveText("$500.00 MXN");
  await expectNoAxeViolations(page);

  // Invalid data: every message in Spanish next to its field, every value kept.
  await page.getByLabel("Nombre completo").fill("Al");
  await page.getByLabel("Correo electrónico").fill("ana-sin-arroba");
  await page.getByLabel("Teléfono celular").fill("55 1234");
  await page.getByLabel("Código postal").fill("0310");
  const refused = withoutJs
    ? page.waitForResponse((response) => response.request().method() === "POST")
    : null;
  await page.getByRole("button", { name: /Continuar al pago de/ }).click();
  if (refused) expect((await refused).status()).toBe(400);
  const email = page.getByLabel("Correo electrónico");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(
    page.getByText("Escribe un correo válido, por ejemplo nombre@ejemplo.com."),
  ).toBeVisible();
  await expect(page.getByText("El teléfono debe tener exactamente 10 dígitos.")).toBeVisible();
  await expect(page.getByText("El código postal debe tener 5 dígitos.")).toBeVisible();
  await expect(page.getByText("Escribe la colonia.")).toBeVisible();
  await expect(page.getByText("Elige el estado.")).toBeVisible();
  await expect(
    page.getByText("Para continuar, acepta el contrato de adhesión y el aviso de privacidad."),
  ).toBeVisible();
  await expect(page.getByLabel("Nombre completo")).toHaveValue("Al");
  await expect(email).toHaveValue("ana-sin-arroba");
  await expect(page.getByLabel("Teléfono celular")).toHaveValue("55 1234");
  // The message is tied to its field for screen readers.
  const describedBy = await email.getAttribute("aria-describedby");
  expect(describedBy).toBeTruthy();
  await expect(page.locator(`[id="${describedBy!.split(" ")[0]}"]`)).toContainText("correo válido");
  await expectNoAxeViolations(page);

  const customerEmail = uniqueEmail();
  await fillCheckout(page, customerEmail);
  await submitCheckout(page);

  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await expect(page.getByTestId("sandbox-banner")).toContainText("Entorno de pruebas");
  await expect(page.getByTestId("sandbox-amount")).toHaveText("$500.00 MXN");
  await expectNoAxeViolations(page);
  await payWithCard(page, TEST_CARDS.approved);

  await expect(
    page.getByRole("heading", { level: 1, name: "Confirmación de tu pedido" }),
  ).toBeVisible();
  await expect(page.getByTestId("order-folio")).toHaveText(/^PED-\d{4}-\d{6}$/);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByTestId("order-total")).toHaveText("$500.00 MXN");
  await expect(page.getByTestId("order-lines")).toContainText("2 × Conecta 150");
  await expect(page.getByTestId("order-lines")).toContainText("1 × Conecta 200");
  await expect(page.getByTestId("order-delivery")).toContainText("Av. Insurgentes Sur 1234");
  await expect(page.getByTestId("order-delivery")).toContainText("C.P. 03100");
  await expect(page.getByTestId("order-delivery")).toContainText("Ciudad de México");
  await expect(page.getByText("Pagado con Visa terminada en 4242")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Siguientes pasos" })).toBeVisible();
  await expect(page.getByText(customerEmail).first()).toBeVisible();
  await expect(cartBadge(page)).toHaveText("0");
  await expectNoAxeViolations(page);

  // The confirmation stays available to this browser, and the cart stays empty.
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await page.goto("/cart");
  await expect(page.getByTestId("cart-empty")).toBeVisible();
  await expect(page.getByRole("link", { name: "Ver planes" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a declined card says why in Spanish and the customer pays the same order on retry", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await cartWith(page, "Conecta 100");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("rechazo"));
  await submitCheckout(page);

  // Bad card data stays on the sandbox page, and the card number is never sent back.
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await page.getByLabel("Número de tarjeta").fill("4242 4242 4242 4241");
  await page.getByLabel("Vencimiento (MM/AA)").fill("01/20");
  await page.getByLabel("Código de seguridad (CVC)").fill("1");
  await page.getByLabel("Nombre como aparece en la tarjeta").fill("Ana Lopez");
  await page.getByRole("button", { name: /^Pagar / }).click();
  await expect(page.getByText("El número de tarjeta no es válido. Revísalo.")).toBeVisible();
  await expect(page.getByText("La tarjeta está vencida.")).toBeVisible();
  await expect(page.getByText("El código de seguridad tiene 3 dígitos.")).toBeVisible();
  await expect(page.getByLabel("Nombre como aparece en la tarjeta")).toHaveValue("Ana Lopez");
  await expectNoAxeViolations(page);

  await payWithCard(page, TEST_CARDS.declined);
  const folio = await page.getByTestId("order-folio").textContent();
  await expect(page.getByTestId("order-status")).toHaveText("Pago rechazado");
  await expect(page.getByTestId("payment-declined")).toContainText("el banco rechazó la tarjeta");
  await expect(page.getByTestId("payment-declined")).toContainText(`${folio} sigue guardado`);
  // The order keeps its plans (decision 0105): the cart is empty, the retry pays this order.
  await expect(cartBadge(page)).toBeHidden();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Intentar el pago de nuevo" }).click();
  await payWithCard(page, TEST_CARDS.insufficientFunds);
  await expect(page.getByTestId("payment-declined")).toContainText(
    "la tarjeta no tiene fondos suficientes",
  );
  await expect(page.getByTestId("order-folio")).toHaveText(folio!);

  await page.getByRole("button", { name: "Intentar el pago de nuevo" }).click();
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByTestId("order-folio")).toHaveText(folio!);
  await expect(page.getByTestId("payment-declined")).toHaveCount(0);
  await expect(cartBadge(page)).toHaveText("0");
});

test("submitting the checkout again, after going back, resumes the same order", async ({
  page,
}) => {
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("reenvio"));
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  const firstPaymentPage = page.url();

  await page.goBack();
  await expect(page).toHaveURL(/\/checkout$/);
  await fillCheckout(page, uniqueEmail("reenvio"));
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  expect(page.url()).toBe(firstPaymentPage);

  // The same form posted twice more by the browser (a double click, a resubmission).
  await page.goto("/checkout");
  const key = await page.locator('input[name="idempotency_key"]').inputValue();
  const form = {
    full_name: "Ana López",
    email: uniqueEmail("reenvio"),
    phone_number: "5512345678",
    street: "Calle 1",
    exterior_number: "1",
    neighborhood: "Centro",
    postal_code: "06000",
    municipality: "Cuauhtémoc",
    state: "CMX",
    ...holderFormFields(),
    accept_terms: "on",
    idempotency_key: key,
  };
  const [first, second] = await Promise.all([
    page.request.post("/checkout", { form, maxRedirects: 0 }),
    page.request.post("/checkout", { form, maxRedirects: 0 }),
  ]);
  expect(first.status()).toBe(303);
  expect(second.headers().location).toBe(first.headers().location);
  expect(new URL(first.headers().location, firstPaymentPage).href).toBe(firstPaymentPage);

  await page.goto(firstPaymentPage);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByTestId("order-lines")).toContainText("1 × Conecta 200");
});

test("an order is visible only to the browser that placed it", async ({ page, browser }) => {
  await cartWith(page, "Conecta 50");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("privado"));
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  const confirmation = page.url();

  const stranger = await browser.newContext();
  try {
    const strangerPage = await stranger.newPage();
    const response = await strangerPage.goto(confirmation);
    expect(response?.status()).toBe(404);
    await expect(strangerPage.getByRole("heading", { level: 1 })).toHaveText(
      "Página no encontrada",
    );
    await expect(strangerPage.getByTestId("order-folio")).toHaveCount(0);
  } finally {
    await stranger.close();
  }

  for (const path of ["/confirmation", "/confirmation?pedido=AAAAAAAAAAAAAAAAAAAAAA"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
  }
  await expectNoAxeViolations(page);
});

test("an empty cart sends the checkout back to the cart with a message", async ({ page }) => {
  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId("cart-empty")).toBeVisible();
  await expect(page.getByTestId("flash")).toContainText(
    "Tu carrito está vacío: agrega un plan antes de pagar.",
  );
});

test("with JavaScript the badge updates at once, without leaving the page, and buttons show progress", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "js-disabled", "optimistic updates need JavaScript");
  await page.goto("/plans");
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  // Hold the server's answer so the optimistic state can be seen.
  await page.route("**/cart.data*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  const card = planCard(page, "Conecta 300");
  await card.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cartBadge(page)).toHaveText("1");
  await expect(card.getByRole("button", { name: "Agregando…" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Agregar al carrito" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(page).toHaveURL(/\/plans$/);
  await page.unroute("**/cart.data*");

  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("pendiente"));
  await page.route("**/checkout.data*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await submitCheckout(page);
  const pending = page.getByRole("button", { name: "Creando tu pedido…" });
  await expect(pending).toBeVisible();
  await expect(pending).toBeDisabled();
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
});

test("a checkout form this browser no longer recognises is refused once, then sent again it places the order", async ({
  page,
  context,
}) => {
  await cartWith(page, "Conecta 100");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("caducada"));
  // The browser loses what it held of the checkout (its cookie expired, or a sign-out in another
  // tab forgot it); the cart stays.
  const cookies = await context.cookies();
  await context.clearCookies();
  await context.addCookies(cookies.filter((cookie) => cookie.name !== "orders"));
  await submitCheckout(page);
  await expect(page.getByRole("alert").first()).toContainText(
    "Esta página de pago ya no es válida en este navegador.",
  );
  await expect(page.getByLabel("Nombre completo")).toHaveValue("Ana López Hernández");
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
});

// Issue 30 (decision 0080): a name holding a bidi override or an escape sequence would reach the
// operator's terminal as it is; the form refuses it next to the field, and keeps what was typed.
test("a name or an address with a bidi override or an escape sequence is refused next to its field, values kept", async ({
  page,
}, testInfo) => {
  const withoutJs = testInfo.project.name === "js-disabled";
  const name = "Ana \u202EzepóL\u202C Hernández";
  const street = "Av. Insurgentes \u001B[31mSur";
  const message =
    "Este dato tiene caracteres invisibles o de control que no se permiten. Escríbelo de nuevo a mano, sin copiar y pegar.";
  const messageOf = async (field: Locator) => {
    const describedBy = await field.getAttribute("aria-describedby");
    expect(describedBy).toBeTruthy();
    return page.locator(`[id="${describedBy!.split(" ")[0]}"]`);
  };

  await cartWith(page, "Conecta 100");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("bidi"));
  await page.getByLabel("Nombre completo").fill(name);
  await page.getByLabel("Calle").fill(street);
  const refused = withoutJs
    ? page.waitForResponse((response) => response.request().method() === "POST")
    : null;
  await submitCheckout(page);
  if (refused) expect((await refused).status()).toBe(400);

  for (const [label, value] of [
    ["Nombre completo", name],
    ["Calle", street],
  ]) {
    const field = page.getByLabel(label);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(await messageOf(field)).toHaveText(message);
    await expect(field).toHaveValue(value);
  }
  await expect(page.getByLabel("Colonia")).toHaveValue("Del Valle");
  await expect(page).toHaveURL(/\/checkout$/);

  // With JavaScript the browser refused it before sending; the server refuses it just the same.
  if (!withoutJs) {
    const form = Object.fromEntries(
      await page
        .locator("form")
        .filter({ has: page.getByLabel("Nombre completo") })
        .evaluate((element: HTMLFormElement) => [...new FormData(element)] as [string, string][]),
    );
    const response = await page.request.post("/checkout", {
      form,
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(message);
  }

  await page.getByLabel("Nombre completo").fill("Ana López Hernández");
  await page.getByLabel("Calle").fill("Av. Insurgentes Sur");
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
});
