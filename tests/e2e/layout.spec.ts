import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { expectFitsEveryWidth } from "./support/layout";
import {
  addPlan,
  fillCheckout,
  ORDER_CONFIRMATION_URL,
  choosePaymentMethod,
  fillHolder,
  payWithCard,
  submitCheckout,
  TEST_CARDS,
  TOPUP_RECEIPT_URL,
  validCheckout,
} from "./support/commerce";
import { saveCardWhileToppingUp, savedCardRadio } from "./support/saved-cards";
import { createCustomer, signInTo } from "./support/customers";
import { askForCode, smsCode, typeCode, uniqueLineNumber } from "./support/lines";

/**
 * Issue 17: every page, and every form with its errors shown, fits a phone. At 320, 375 and 768 px
 * wide, with ordinary long values (a long e-mail, long names and addresses, a long folio), no page
 * scrolls sideways, no element's right edge passes the viewport, and every submit button is a
 * thumb's size (44 × 44 px at least). Both projects run it: with JavaScript and without.
 */
const LONG_EMAIL = "ana.sofia.lopez.hernandez@gmail.com";
const LONG_NAME = "María de los Ángeles Guadalupe Fernández-Villaseñor de la Concepción";
const LONG_STREET = "Avenida Insurgentes Sur entre Eje 7 Sur y Circuito Interior José Vasconcelos";
const LONG_NEIGHBORHOOD = "Fraccionamiento Residencial Lomas de Chapultepec Tercera Sección";
const LONG_FOLIO = "PED-2026-000000000000000000000000000000001";

const scripted = () => test.info().project.use.javaScriptEnabled !== false;

/** A confirmed customer whose address is the long one, made unique with a tag (+…). */
function longEmailCustomer(page: Page) {
  const [local, domain] = LONG_EMAIL.split("@");
  const email = `${local}+${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@${domain}`;
  return createCustomer(page.request, "largo", email);
}

test.use({ viewport: { width: 375, height: 800 } });

test("every page without a form to fill fits a phone", async ({ page }) => {
  for (const path of [
    "/",
    "/plans",
    "/cart",
    "/help-center",
    "/help-center?q=recarga",
    "/pedido",
    "/saldo",
    "/registro-de-linea",
    "/puntos-de-atencion",
    "/puntos-de-atencion?cp=06700",
    "/puntos-de-atencion?estado=CMX&servicio=registro-de-linea",
    "/registro-de-linea/validacion-asistida",
    "/recarga",
    "/portabilidad",
    "/auth/sign-in",
    "/auth/sign-up",
    "/auth/forgot-password",
    "/no-existe-esta-pagina-con-un-nombre-muy-largo-para-un-telefono",
  ]) {
    await page.goto(path);
    await expectFitsEveryWidth(page, path);
  }
});

test("the cart, the checkout with its errors and the confirmation with a long e-mail fit a phone", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/plans");
  await addPlan(page, "Conecta 200", 1);
  await addPlan(page, "Conecta 100", 2);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  await expectFitsEveryWidth(page, "/cart with items");

  await page.goto("/checkout");
  await submitCheckout(page);
  await expect(
    page.getByText("Escribe tu nombre completo", { exact: false }).first(),
  ).toBeVisible();
  await expectFitsEveryWidth(page, "/checkout, sent empty");

  await page.getByLabel("Nombre completo").fill(LONG_NAME);
  await page.getByLabel("Correo electrónico").fill(LONG_EMAIL);
  await page.getByLabel("Teléfono celular").fill(validCheckout.phone_number);
  await fillHolder(page);
  await page.getByLabel("Calle").fill(LONG_STREET);
  await page.getByLabel("Número exterior").fill("1234-B Torre Pte.");
  await page.getByLabel("Colonia").fill(LONG_NEIGHBORHOOD);
  await page.getByLabel("Código postal").fill("031");
  await page.getByLabel("Alcaldía o municipio").fill("Benito Juárez");
  await page.getByLabel("Estado").selectOption({ label: validCheckout.state });
  // The first line keeps its number (issue 34), its NIP mistyped.
  const keepNumber = page.getByRole("group", { name: "Línea 1: Conecta 200" });
  await keepNumber.getByRole("checkbox", { name: "Quiero conservar mi número" }).check();
  await keepNumber
    .getByLabel("Número que quieres conservar (10 dígitos)")
    .fill(`33 ${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`);
  await keepNumber.getByLabel("Compañía actual").selectOption({ label: "Totalplay Móvil" });
  await keepNumber.getByLabel("NIP de portabilidad (4 dígitos)").fill("12");
  await choosePaymentMethod(page, "card");
  await page.getByRole("checkbox", { name: /Acepto el contrato de adhesión/ }).check();
  await submitCheckout(page);
  await expect(
    page.getByText("El código postal debe tener 5 dígitos", { exact: false }),
  ).toBeVisible();
  await expect(keepNumber.getByText("El NIP tiene exactamente 4 dígitos.")).toBeVisible();
  await expectFitsEveryWidth(page, "/checkout with long values, a wrong postal code and NIP");

  await page.getByLabel("Código postal").fill(validCheckout.postal_code);
  await keepNumber.getByLabel("NIP de portabilidad (4 dígitos)").fill("4821");
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await page.getByRole("button", { name: /^Pagar / }).click();
  await expect(page.getByTestId("field-error").first()).not.toBeEmpty();
  await expectFitsEveryWidth(page, "the card form, sent empty");
  // A phone's numeric keypad has no "/": MMAA is accepted.
  await payWithCard(page, TEST_CARDS.approved, { expiry: "1230", holder: LONG_NAME.slice(0, 60) });
  await expect(page.getByText(LONG_EMAIL).first()).toBeVisible();
  await expect(page.getByTestId("order-port-in-folio")).toHaveText(/^POR-/);
  await expectFitsEveryWidth(page, "/confirmation with the long e-mail and a number kept");
  await expectNoAxeViolations(page);

  // The holder shows their identification (decision 0139): the form sent empty.
  await page.getByTestId("holder-proof-link").click();
  await page.getByRole("button", { name: "Confirmar la identidad" }).click();
  await expect(page.getByText("Sube una selfie tomada en este momento.")).toBeVisible();
  await expectFitsEveryWidth(page, "/pedido/titular, sent empty");
});

test("the top-up form with its errors and the receipt fit a phone", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/recarga");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page.getByTestId("field-error").first()).not.toBeEmpty();
  await expectFitsEveryWidth(page, "/recarga, sent empty");

  const line = `56${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$100/ }).check();
  await page.getByLabel("Correo para tu comprobante (opcional)").fill(LONG_EMAIL);
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await expectFitsEveryWidth(page, "the top-up receipt");
});

test("the portability form with its errors, and the order lookup with a long folio, fit a phone", async ({
  page,
}) => {
  await page.goto("/portabilidad");
  const form = page.getByRole("region", { name: "Solicita tu portabilidad" });
  await form.getByLabel("Nombre completo del titular").fill(LONG_NAME);
  await form.getByLabel("Correo electrónico").fill(LONG_EMAIL);
  await form.getByLabel("CURP").fill("GOMA850312MDFRRN0X");
  await form.getByLabel("ICCID de tu nueva SIM").fill("123");
  await form.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(form.getByTestId("field-error").first()).not.toBeEmpty();
  await expectFitsEveryWidth(page, "/portabilidad with errors");

  const lookup = page.getByRole("region", { name: "Consulta el estado de tu portabilidad" });
  await lookup.getByLabel("Folio").fill(LONG_FOLIO);
  await lookup.getByLabel("Número a portar").fill("55 1234 5678");
  await lookup.getByRole("button", { name: "Consultar" }).click();
  await expect(lookup.getByLabel("Folio")).toHaveValue(LONG_FOLIO);
  await expectFitsEveryWidth(page, "the portability lookup with a long folio");

  await page.goto("/pedido");
  await page.getByLabel("Folio del pedido").fill(LONG_FOLIO);
  await page.getByLabel("Correo electrónico del pedido").fill(LONG_EMAIL);
  await page.getByRole("button", { name: "Enviarme el enlace" }).click();
  await expect(page.getByLabel("Folio del pedido")).toHaveValue(LONG_FOLIO);
  await expectFitsEveryWidth(page, "/pedido with a long folio");
});

test("sign-in and sign-up with their errors fit a phone; the phone number keeps its room", async ({
  page,
}) => {
  await page.goto("/auth/sign-in");
  await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
  await expect(page.getByTestId("field-error").first()).not.toBeEmpty();
  await expectFitsEveryWidth(page, "/auth/sign-in, sent empty");

  await page.goto("/auth/sign-up");
  await page.getByLabel("Correo electrónico").fill(LONG_EMAIL.replace("@", ""));
  await page.getByLabel("Contraseña", { exact: true }).fill("corta");
  await page.getByLabel("Número de celular").fill("12");
  const submit = page.getByRole("button", { name: "Crear cuenta" });
  await submit.click();
  await expect(page.getByTestId("field-error").first()).not.toBeEmpty();
  // Errors never disable the submit button (decision 0064).
  await expect(submit).toBeEnabled();
  await expectFitsEveryWidth(page, "/auth/sign-up with errors");
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const number = await page.getByLabel("Número de celular").boundingBox();
    expect(number!.width, `the phone number at ${width} px`).toBeGreaterThan(width / 2);
    const label = await page
      .locator(`label[for="${await page.getByLabel("Número de celular").getAttribute("id")}"]`)
      .boundingBox();
    // One line: not a word per line.
    expect(label!.height, `the phone number's label at ${width} px`).toBeLessThan(40);
  }
});

test("my account, signed in with a long e-mail, fits a phone and its menu button stays whole", async ({
  page,
}) => {
  const customer = await longEmailCustomer(page);
  await signInTo(page, customer, "/my-account");
  await expect(page.getByText(customer.email).first()).toBeVisible();
  await expectFitsEveryWidth(page, "/my-account");
  await page.setViewportSize({ width: 320, height: 800 });
  const menu = await page.getByTestId("mobile-menu").locator("summary").boundingBox();
  expect(menu!.x + menu!.width).toBeLessThanOrEqual(320);
  if (scripted()) {
    // The menu's external link opens a new tab; the menu left behind closes.
    await page.getByTestId("mobile-menu").locator("summary").click();
    const popup = page.context().waitForEvent("page");
    await page
      .getByTestId("mobile-menu")
      .getByRole("link", { name: /SIM física/ })
      .click();
    await (await popup).close();
    await expect(page.getByTestId("mobile-menu")).not.toHaveAttribute("open", "");
  }
  await page.goto("/my-account/recarga");
  await expectFitsEveryWidth(page, "/my-account/recarga");
  await page.goto("/my-account/seguridad");
  await expectFitsEveryWidth(page, "/my-account/seguridad");
  // The password asked again before a sensitive change names the long address.
  await page.goto("/my-account/confirmar-identidad?redirectTo=/my-account/seguridad");
  await expect(page.getByText(customer.email).first()).toBeVisible();
  await expectFitsEveryWidth(page, "/my-account/confirmar-identidad");
});

test("an empty cart shows no 0 in the bar, and the cart link still says how many plans it holds", async ({
  page,
}) => {
  await page.goto("/plans");
  await expect(page.getByTestId("cart-count")).toBeHidden();
  await expect(page.getByTestId("cart-link")).toHaveAccessibleName(/Carrito/);
  await addPlan(page, "Conecta 100", 1);
  await expect(page.getByTestId("cart-count")).toBeVisible();
});

test("the account's lines, adding one with its code, a line's page and /saldo fit a phone", async ({
  page,
}) => {
  const customer = await createCustomer(page.request, "lineas-telefono");
  const number = uniqueLineNumber();
  await signInTo(page, customer, "/my-account/lineas");
  await askForCode(page, "55 12");
  await expect(page.getByTestId("field-error").first()).not.toBeEmpty();
  await expectFitsEveryWidth(page, "/my-account/lineas, a short number");
  await askForCode(page, number);
  await expect(page.getByTestId("code-sent")).toBeVisible();
  await typeCode(page, "000000", "Agregar la línea");
  await expect(page.getByTestId("field-error").first()).not.toBeEmpty();
  await expectFitsEveryWidth(page, "/my-account/lineas, a wrong code");
  await typeCode(page, await smsCode(page.request, number), "Agregar la línea");
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);
  await expectFitsEveryWidth(page, "a line's page");
  await page.goto("/my-account/lineas");
  await expectFitsEveryWidth(page, "/my-account/lineas with a line");
  await page.goto("/my-account");
  await expectFitsEveryWidth(page, "/my-account with a line");

  await page.context().clearCookies();
  await page.goto("/saldo");
  await askForCode(page, number);
  await typeCode(page, await smsCode(page.request, number, 1), "Ver mi saldo");
  await expect(page.getByTestId("line-figures")).toBeVisible();
  await expectFitsEveryWidth(page, "/saldo with a line shown");
});

test("saved cards, the payment choice with a saved card, and a line's automatic top-up fit a phone", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const customer = await longEmailCustomer(page);
  await signInTo(page, customer, "/my-account/recarga");
  await saveCardWhileToppingUp(page, uniqueLineNumber());
  await page.goto("/my-account/recarga");
  await expect(savedCardRadio(page)).toBeVisible();
  await expectFitsEveryWidth(page, "/my-account/recarga with a saved card");
  await page.goto("/my-account/tarjetas");
  await expect(page.getByTestId("saved-card")).toBeVisible();
  await expectFitsEveryWidth(page, "/my-account/tarjetas");

  const number = uniqueLineNumber();
  await page.goto("/my-account/lineas");
  await askForCode(page, number);
  await typeCode(page, await smsCode(page.request, number), "Agregar la línea");
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);
  await page.getByTestId("auto-topup-settings").click();
  await expectFitsEveryWidth(page, "a line's automatic top-up, off");
  await page.getByRole("button", { name: "Activar la recarga automática" }).click();
  await expect(page.getByTestId("auto-topup-state")).toContainText("Activa");
  await expectFitsEveryWidth(page, "a line's automatic top-up, on");
  await page.goto(`/my-account/lineas/${number}`);
  await expect(page.getByTestId("auto-topup-summary")).toHaveAttribute("data-state", "active");
  await expectFitsEveryWidth(page, "a line's page with its automatic top-up");
});

/** The desktop bar's items whose text runs over more than one line, or that sit below the first. */
function wrappedNavItems(page: Page): Promise<string[]> {
  return page.getByTestId("navbar").evaluate((bar) => {
    const list = bar.querySelector("nav > div ul");
    if (!list) return ["no desktop list"];
    const items = [...list.querySelectorAll(":scope > li")].map((item) => {
      // Visible text only: a screen reader's hint ("se abre en una pestaña nueva") is not seen.
      const tops = new Set<number>();
      const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest(".sr-only")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          if (rect.width > 1 && rect.height > 1) tops.add(Math.round(rect.top));
        }
      }
      return {
        text: (item.textContent ?? "").trim(),
        lines: tops.size,
        top: item.getBoundingClientRect().top,
      };
    });
    const firstTop = Math.min(...items.map((item) => item.top));
    const wrapped = items
      .filter((item) => item.lines > 1 || item.top > firstTop + 2)
      .map((item) => `${item.text} (${item.lines} líneas)`);
    // Kept on one line by pushing past the window is no better.
    const outside = [...bar.querySelectorAll("nav *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map(
        (element) =>
          `${(element.textContent ?? "").trim().slice(0, 30)} fuera de la ventana (${Math.round(element.getBoundingClientRect().right - window.innerWidth)} px)`,
      );
    return [...wrapped, ...outside.slice(0, 3)];
  });
}

test("the desktop navigation stays on one line from 1024 to 1440 px, signed out and signed in", async ({
  page,
}) => {
  const widths = [1024, 1280, 1366, 1440];
  await page.goto("/plans");
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    expect(await wrappedNavItems(page), `signed out at ${width} px`).toEqual([]);
  }
  const customer = await longEmailCustomer(page);
  await signInTo(page, customer, "/my-account");
  await expect(page.getByRole("button", { name: "Cerrar sesión" }).first()).toBeAttached();
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    expect(await wrappedNavItems(page), `signed in at ${width} px`).toEqual([]);
  }
});

/** Words of the account's tables broken across two lines: each word's text should be one box. */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll("[data-testid^='account-'] td")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

test("the account's orders and top-ups are read whole on a phone: no word broken in two", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const customer = await longEmailCustomer(page);
  await signInTo(page, customer, "/plans");
  await addPlan(page, "Conecta 200", 1);
  await page.goto("/checkout");
  await fillCheckout(page, customer.email);
  await choosePaymentMethod(page, "cash");
  await submitCheckout(page);
  await expect(page).toHaveURL(ORDER_CONFIRMATION_URL);
  // The voucher with its PDF link and the receipt's (decision 0141).
  await expect(page.getByTestId("payment-pdf")).toBeVisible();
  await expect(page.getByTestId("order-receipt-pdf")).toBeVisible();
  await expectFitsEveryWidth(page, "/confirmation with a cash voucher and its PDF links");

  await page.goto("/my-account/recarga");
  const line = `56${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$100/ }).check();
  await choosePaymentMethod(page, "spei");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("payment-pdf")).toBeVisible();
  await expectFitsEveryWidth(page, "a top-up's SPEI details with their PDF links");

  await page.goto("/my-account");
  await expect(page.getByTestId("account-order")).toHaveCount(1);
  await expect(page.getByTestId("account-topup")).toHaveCount(1);
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await brokenWords(page), `/my-account at ${width} px`).toEqual([]);
  }
  await expectFitsEveryWidth(page, "/my-account with an order and a top-up");
  await expectNoAxeViolations(page);
});

test("the assisted validation's form with its errors and its folio with a long e-mail fit a phone", async ({
  page,
}) => {
  const path = "/registro-de-linea/validacion-asistida";
  await page.goto(path);
  const form = page.getByTestId("assisted-validation-form");
  await form.getByLabel("Teléfono o correo para contactarte").fill(LONG_NAME);
  await form.getByRole("button", { name: "Pedir validación asistida" }).click();
  await expect(form.getByTestId("field-error").first()).toHaveText(
    "Escribe un teléfono de 10 dígitos o un correo válido.",
  );
  await expectFitsEveryWidth(page, `${path} with its errors`);
  await form.getByLabel("Teléfono o correo para contactarte").fill(LONG_EMAIL);
  await form.getByLabel("Número de la línea que quieres registrar").fill(uniqueLineNumber());
  await form.getByLabel("¿Cuándo te contactamos?").selectOption("noche");
  await form.getByRole("button", { name: "Pedir validación asistida" }).click();
  await expect(page.getByTestId("assisted-validation-folio")).toBeVisible();
  await expectFitsEveryWidth(page, `${path} done`);
});
