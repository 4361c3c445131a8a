import { expect, test, type Locator, type Page, type Response } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { expectNoAxeViolations } from "./support/axe";
import {
  addPlan,
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  fillHolder,
  payWithCard,
  simulateVoucher,
  submitCheckout,
  TEST_CARDS,
  uniqueEmail,
  uniqueHolder,
  validCheckout,
} from "./support/commerce";

// Issue 34, decision 0106: "Quiero conservar mi número" at checkout, for each SIM bought. The
// number, its carrier and its NIP go with the order; the portability request is filed when the
// order is paid, with its own folio and status page, and the SIM of the order receives the number.

/** Distinctive enough to search a page for; no number or address below contains it. */
const NIP = "4821";

/** A 10-digit number no other test uses (tests share one server and run in parallel). */
function uniquePhoneNumber(): string {
  for (;;) {
    const digits = `33${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    if (!digits.includes(NIP)) return digits;
  }
}

function uniqueAddress(prefix: string): string {
  for (;;) {
    const email = uniqueEmail(prefix);
    if (!email.includes(NIP)) return email;
  }
}

const spaced = (digits: string) => `${digits.slice(0, 2)} ${digits.slice(2, 6)} ${digits.slice(6)}`;
const masked = (digits: string) => `•••••• ${digits.slice(-4)}`;

/** One SIM's "Quiero conservar mi número" block, by its legend. */
const simBlock = (page: Page, legend: string | RegExp) => page.getByRole("group", { name: legend });

async function keepNumber(
  block: Locator,
  { number, carrier = "Telcel", nip = NIP }: { number: string; carrier?: string; nip?: string },
) {
  await block.getByRole("checkbox", { name: "Quiero conservar mi número" }).check();
  await block.getByLabel("Número que quieres conservar (10 dígitos)").fill(spaced(number));
  await block.getByLabel("Compañía actual").selectOption({ label: carrier });
  await block.getByLabel("NIP de portabilidad (4 dígitos)").fill(nip);
}

/** The message beside a field of the form, by the field's name. */
const fieldError = (page: Page, name: string) =>
  page.locator(`div:has(> [name="${name}"])`).getByTestId("field-error");

/** Every response of the store from now on, to search for what must never be sent back. */
function recordResponses(page: Page) {
  const responses: Response[] = [];
  page.on("response", (response) => {
    if (response.url().startsWith(BASE_URL)) responses.push(response);
  });
  return async () => {
    const bodies: string[] = [];
    for (const response of responses) {
      if (response.status() >= 300 && response.status() < 400) continue;
      const type = response.headers()["content-type"] ?? "";
      if (!/html|json|text/.test(type)) continue;
      bodies.push(await response.text().catch(() => ""));
    }
    return bodies;
  };
}

async function chooseEsim(page: Page) {
  await page
    .getByRole("group", { name: "Tipo de SIM" })
    .getByRole("radio", { name: /^eSIM/ })
    .check();
}

async function fillEsimCheckout(page: Page, email: string) {
  await chooseEsim(page);
  await page.getByLabel("Nombre completo").fill(validCheckout.full_name);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Teléfono celular").fill(validCheckout.phone_number);
  await fillHolder(page);
  await page.getByRole("checkbox", { name: /Acepto el contrato de adhesión/ }).check();
}

/** The portability request filed for an order's SIM, as its page shows it. */
const portIn = (page: Page) => page.getByTestId("order-port-ins").getByTestId("order-port-in");

test("an eSIM bought keeping a number: paid by card, the order shows the request's folio, its page shows the request", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const number = uniquePhoneNumber();
  const email = uniqueAddress("conserva-esim");
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  const block = simBlock(page, "Tu línea (Conecta 200)");
  await expect(page.getByRole("heading", { name: "¿Quieres conservar tu número?" })).toBeVisible();
  // Opt-in: the number's fields show only once the box is checked, with or without JavaScript.
  await expect(block.getByLabel("NIP de portabilidad (4 dígitos)")).toBeHidden();
  await fillEsimCheckout(page, email);
  await keepNumber(block, { number });
  await expect(block.getByLabel("NIP de portabilidad (4 dígitos)")).toBeVisible();
  await expect(page.getByRole("link", { name: /política de portabilidad/ })).toBeVisible();
  await expectNoAxeViolations(page);

  const bodies = recordResponses(page);
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");

  const filed = portIn(page);
  await expect(filed).toHaveCount(1);
  await expect(filed).toHaveAttribute("data-state", "filed");
  await expect(filed).toContainText(`Línea 1 (Conecta 200): tu número ${masked(number)} de Telcel`);
  const folio = (await filed.getByTestId("order-port-in-folio").textContent()) ?? "";
  expect(folio).toMatch(/^POR-\d{4}-\d{6}$/);
  await expect(filed.getByTestId("order-port-in-status")).toHaveText("Recibida");
  // The eSIM that receives the number is on the same page, with its ICCID: nobody copies it.
  await expect(page.getByTestId("esim-iccid")).toHaveText(/^89\d{17,18}$/);
  await expectNoAxeViolations(page);

  await filed.getByRole("link", { name: `Ver el estado de la solicitud ${folio}` }).click();
  await expect(page).toHaveURL(new RegExp(`/portabilidad\\?solicitud=${folio}$`));
  const result = page.getByRole("region", { name: "Recibimos tu solicitud" });
  await expect(result.getByTestId("portability-folio")).toHaveText(folio);
  await expect(result.getByTestId("portability-status")).toHaveText("Recibida");
  await expect(result.getByTestId("portability-line")).toHaveText(masked(number));
  await expect(result.getByTestId("portability-carrier")).toHaveText("Telcel");
  await expect(result.getByText(`Te avisaremos por correo a ${email}.`)).toBeVisible();

  // The NIP never came back: not on a page, not in any answer since the form was sent.
  for (const body of await bodies()) expect(body).not.toContain(NIP);
  expect(await page.content()).not.toContain(NIP);

  // The customer gets the portability request's own e-mail, with its folio.
  await expect
    .poll(async () => (await request.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).text(), {
      timeout: 20_000,
    })
    .toContain(`Recibimos tu solicitud de portabilidad ${folio}`);
});

test("two physical SIMs, the second keeping a number: only that one is filed, and its page opens from the order", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const number = uniquePhoneNumber();
  await page.goto("/plans");
  await addPlan(page, "Conecta 200", 1);
  await addPlan(page, "Conecta 200", 2);
  await page.goto("/checkout");
  await fillCheckout(page, uniqueAddress("conserva-fisica"));
  await expect(simBlock(page, "Línea 1: Conecta 200")).toBeVisible();
  await keepNumber(simBlock(page, "Línea 2: Conecta 200"), { number, carrier: "AT&T" });
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  const filed = portIn(page);
  await expect(filed).toHaveCount(1);
  await expect(filed).toContainText(`Línea 2 (Conecta 200): tu número ${masked(number)} de AT&T`);
  const folio = (await filed.getByTestId("order-port-in-folio").textContent()) ?? "";
  await filed.getByTestId("order-port-in-link").click();
  await expect(
    page.getByRole("region", { name: "Recibimos tu solicitud" }).getByTestId("portability-folio"),
  ).toHaveText(folio);
});

test("a cash order keeping a number: nothing is filed until the payment is reported, then the folio shows", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const number = uniquePhoneNumber();
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillEsimCheckout(page, uniqueAddress("conserva-efectivo"));
  await keepNumber(simBlock(page, "Tu línea (Conecta 200)"), { number });
  await choosePaymentMethod(page, "cash");
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
  await expect(page.getByTestId("order-status")).toHaveText("Pendiente de pago");
  const waiting = portIn(page);
  await expect(waiting).toHaveAttribute("data-state", "waiting");
  await expect(waiting).toContainText(
    "Enviaremos la solicitud de portabilidad en cuanto se acredite tu pago",
  );
  await expect(waiting.getByTestId("order-port-in-folio")).toHaveCount(0);

  // Not filed yet: the status lookup knows no request for the number.
  await page.goto(`/portabilidad?folio=POR-2026-000001&numero=${number}`);
  await expect(
    page.getByText("No encontramos una solicitud con ese folio y ese número."),
  ).toBeVisible();
  await page.goBack();

  await simulateVoucher(page, /^Simular pago en tienda$/);
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  const filed = portIn(page);
  await expect(filed).toHaveAttribute("data-state", "filed");
  const folio = (await filed.getByTestId("order-port-in-folio").textContent()) ?? "";
  expect(folio).toMatch(/^POR-\d{4}-\d{6}$/);
  // Looked up from anywhere with folio and number: the request exists, received.
  await page.goto(`/portabilidad?folio=${folio}&numero=${number}`);
  await expect(
    page
      .getByRole("region", { name: "Consulta el estado de tu portabilidad" })
      .getByTestId("portability-status"),
  ).toHaveText("Recibida");
});

test("a wrong number, carrier or NIP is told beside its field, 400, everything else kept (the NIP typed again)", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const withoutJs = testInfo.project.use.javaScriptEnabled === false;
  const email = uniqueAddress("conserva-error");
  const holder = uniqueHolder();
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillEsimCheckout(page, email);
  await page.getByLabel("CURP del titular").fill(holder.curp);
  const block = simBlock(page, "Tu línea (Conecta 200)");
  await block.getByRole("checkbox", { name: "Quiero conservar mi número" }).check();
  await block.getByLabel("Número que quieres conservar (10 dígitos)").fill("12 3456");
  await block.getByLabel("NIP de portabilidad (4 dígitos)").fill("48");

  if (!withoutJs) {
    // What the browser sends, posted as it is: the server says the same, with a 400, and the
    // NIP it was sent is not in its answer.
    const form = Object.fromEntries(
      await page
        .locator("form")
        .filter({ has: page.getByLabel("CURP del titular") })
        .evaluate((element: HTMLFormElement) => [...new FormData(element)] as [string, string][]),
    );
    const response = await page.request.post("/checkout", {
      form: { ...form, "ports[0].nip": "4X21" },
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("El número debe tener 10 dígitos, sin lada de país");
    expect(html).toContain("Elige tu compañía actual.");
    expect(html).toContain("El NIP tiene exactamente 4 dígitos.");
    expect(html).not.toContain("4X21");
  }

  await submitCheckout(page);
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(fieldError(page, "ports[0].phone_number")).toHaveText(
    "El número debe tener 10 dígitos, sin lada de país (por ejemplo 55 1234 5678).",
  );
  await expect(fieldError(page, "ports[0].current_carrier")).toHaveText(
    "Elige tu compañía actual.",
  );
  await expect(fieldError(page, "ports[0].nip")).toHaveText("El NIP tiene exactamente 4 dígitos.");
  // Everything typed is kept, the box still checked, the fields still shown.
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
  await expect(page.getByLabel("CURP del titular")).toHaveValue(holder.curp);
  await expect(block.getByRole("checkbox", { name: "Quiero conservar mi número" })).toBeChecked();
  await expect(block.getByLabel("Número que quieres conservar (10 dígitos)")).toHaveValue(
    "12 3456",
  );
  if (withoutJs) {
    // The server never sends a NIP back: the customer types it again, and is told why.
    await expect(block.getByLabel("NIP de portabilidad (4 dígitos)")).toHaveValue("");
    await expect(block.getByText("Por tu seguridad no conservamos el NIP")).toBeVisible();
  }
  await expectNoAxeViolations(page);

  const number = uniquePhoneNumber();
  await keepNumber(block, { number });
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(portIn(page)).toHaveAttribute("data-state", "filed");
});

test("a number that already has a request in process is told at checkout, beside it; unchecked, the line is bought", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const number = uniquePhoneNumber();
  // Someone asked to bring the number at /portabilidad.
  await page.goto("/portabilidad");
  const form = page.getByRole("region", { name: "Solicita tu portabilidad" });
  await form.getByLabel("Número a portar (10 dígitos)").fill(number);
  await form.getByLabel("NIP de portabilidad (4 dígitos)").fill("1357");
  await form.getByLabel("Nombre completo del titular").fill("Otra Persona");
  await form.getByLabel("Correo electrónico").fill(uniqueAddress("otra"));
  await form.getByLabel("CURP").fill(uniqueHolder().curp);
  await form.getByLabel("Compañía actual").selectOption({ label: "Telcel" });
  await form.getByRole("checkbox", { name: /Acepto la política de portabilidad/ }).check();
  await form.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(page).toHaveURL(/\/portabilidad\?solicitud=POR-/);

  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  const email = uniqueAddress("conserva-ocupado");
  await fillEsimCheckout(page, email);
  const block = simBlock(page, "Tu línea (Conecta 200)");
  await keepNumber(block, { number });
  const answer = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" &&
      /^\/checkout(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await submitCheckout(page);
  expect((await answer).status()).toBe(409);
  await expect(fieldError(page, "ports[0].phone_number")).toContainText(
    "Este número ya tiene una solicitud de portabilidad en proceso",
  );
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);

  // Without the number, the line is bought as usual, with a new number.
  await block.getByRole("checkbox", { name: "Quiero conservar mi número" }).uncheck();
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByTestId("order-port-ins")).toHaveCount(0);
});
