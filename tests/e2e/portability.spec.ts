import { expect, test, type Page, type Response } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { uniqueEmail } from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";

/** A CURP with its correct check digit. */
const CURP = "GOMA850312MDFRRN09";
/** Distinctive enough to search the HTML for; no test phone number contains it. */
const NIP = "4821";

/** A 10-digit number no other test uses (tests share one server and run in parallel). */
function uniquePhoneNumber(): string {
  for (;;) {
    const digits = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    if (!digits.includes(NIP)) return digits;
  }
}

const spaced = (digits: string) => `${digits.slice(0, 2)} ${digits.slice(2, 6)} ${digits.slice(6)}`;

const requestForm = (page: Page) => page.getByRole("region", { name: "Solicita tu portabilidad" });
const lookupForm = (page: Page) =>
  page.getByRole("region", { name: "Consulta el estado de tu portabilidad" });

/** An address no NIP can be read in (its time-stamp digits could hold "4821"). */
function uniqueRequestEmail(): string {
  for (;;) {
    const email = uniqueEmail("porta");
    if (!email.includes(NIP)) return email;
  }
}

async function fillRequest(page: Page, phoneNumber: string, email = uniqueRequestEmail()) {
  const form = requestForm(page);
  await form.getByLabel("Número a portar (10 dígitos)").fill(spaced(phoneNumber));
  await form.getByLabel("NIP de portabilidad (4 dígitos)").fill(NIP);
  await form.getByLabel("Nombre completo del titular").fill("Ana Gómez Martínez");
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("CURP").fill(CURP.toLowerCase());
  await form.getByLabel("Compañía actual").selectOption({ label: "Telcel" });
  await form.getByRole("checkbox", { name: /Acepto la política de portabilidad/ }).check();
  return email;
}

function submitRequest(page: Page) {
  return requestForm(page).getByRole("button", { name: "Enviar solicitud" }).click();
}

/** Every response of the page from now on, to search for what must never be sent back. */
function recordResponses(page: Page) {
  const responses: Response[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/portabilidad")) responses.push(response);
  });
  return async () => {
    const bodies: string[] = [];
    for (const response of responses) {
      // Redirects have no body to read.
      if (response.status() >= 300 && response.status() < 400) continue;
      bodies.push(await response.text().catch(() => ""));
    }
    return bodies;
  };
}

async function lookUp(page: Page, folio: string, phoneNumber: string) {
  const form = lookupForm(page);
  await form.getByLabel("Folio").fill(folio);
  await form.getByLabel("Número a portar").fill(phoneNumber);
  await form.getByRole("button", { name: "Consultar" }).click();
}

test("a customer asks to keep their number, gets a folio and looks up its status", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const phoneNumber = uniquePhoneNumber();
  await page.goto("/portabilidad");
  await expect(page.getByText(/llama o envía un SMS con la palabra NIP al 051/)).toBeVisible();
  await expect(page.getByText(/válido por 5 días naturales/)).toBeVisible();
  await expect(page.getByText(/El saldo y los beneficios/)).toBeVisible();
  await expect(page.getByText(/adeudos pendientes/)).toBeVisible();
  await expect(page.getByText(/máximo de 24 horas/).first()).toBeVisible();
  await expectNoAxeViolations(page);

  const email = await fillRequest(page, phoneNumber);
  const bodies = recordResponses(page);
  await submitRequest(page);

  await expect(page).toHaveURL(/\/portabilidad\?solicitud=POR-\d{4}-\d{6}$/);
  const result = page.getByRole("region", { name: "Recibimos tu solicitud" });
  const folio = (await result.getByTestId("portability-folio").textContent()) ?? "";
  expect(folio).toMatch(/^POR-\d{4}-\d{6}$/);
  await expect(result.getByTestId("portability-status")).toHaveText("Recibida");
  await expect(result.getByTestId("portability-line")).toHaveText(
    `•••••• ${phoneNumber.slice(-4)}`,
  );
  await expect(result.getByTestId("portability-carrier")).toHaveText("Telcel");
  await expect(result.getByRole("heading", { name: "Siguientes pasos" })).toBeVisible();
  await expect(result.getByText(`Te avisaremos por correo a ${email}.`)).toBeVisible();
  // The NIP is never sent back: not in the page, not in any response since the submission.
  expect(await page.content()).not.toContain(NIP);
  for (const body of await bodies()) expect(body).not.toContain(NIP);
  await expectNoAxeViolations(page);

  // The lookup knows the folio already; the customer adds the number.
  await expect(lookupForm(page).getByLabel("Folio")).toHaveValue(folio);
  await lookUp(page, folio.toLowerCase(), spaced(phoneNumber));
  await expect(page).toHaveURL(/[?&]folio=.*&numero=/);
  const status = lookupForm(page).getByTestId("portability-lookup");
  await expect(status.getByTestId("portability-folio")).toHaveText(folio);
  await expect(status.getByTestId("portability-status")).toHaveText("Recibida");
  await expect(status.getByTestId("portability-line")).toHaveText(
    `•••••• ${phoneNumber.slice(-4)}`,
  );
  // The lookup shows nothing personal beyond the masked line.
  await expect(page.getByText(email)).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Folio and number must both match.
  await lookUp(page, folio, uniquePhoneNumber());
  await expect(
    page.getByText("No encontramos una solicitud con ese folio y ese número."),
  ).toBeVisible();
  await expect(lookupForm(page).getByTestId("portability-lookup")).toHaveCount(0);
});

test("each invalid field says what is wrong in Spanish and keeps what was typed, except the NIP", async ({
  page,
}, testInfo) => {
  const withoutJs = testInfo.project.name === "js-disabled";
  await page.goto("/portabilidad");
  const form = requestForm(page);
  if (!withoutJs) {
    // With JavaScript a field is checked as soon as the customer leaves it (once the page is
    // interactive: under load the test could type before it was).
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await form.getByLabel("Número a portar (10 dígitos)").fill("12345");
    await form.getByLabel("NIP de portabilidad (4 dígitos)").focus();
    await expect(
      form.getByText(
        "El número debe tener 10 dígitos, sin lada de país (por ejemplo 55 1234 5678).",
      ),
    ).toBeVisible();
  }
  const values = {
    "Número a portar (10 dígitos)": "12345",
    "NIP de portabilidad (4 dígitos)": "98a7",
    "Nombre completo del titular": "A",
    "Correo electrónico": "ana@",
    CURP: "GOMA850312",
    "ICCID de tu nueva SIM (opcional)": "8952012345",
  };
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label).fill(value);
  // Leaving the last field first: its message appearing would move the button under the pointer.
  await form.getByLabel("ICCID de tu nueva SIM (opcional)").blur();
  const refused = withoutJs
    ? page.waitForResponse((response) => response.request().method() === "POST")
    : null;
  await submitRequest(page);
  if (refused) expect((await refused).status()).toBe(400);

  const messages: Record<string, string> = {
    "Número a portar (10 dígitos)":
      "El número debe tener 10 dígitos, sin lada de país (por ejemplo 55 1234 5678).",
    "NIP de portabilidad (4 dígitos)": "El NIP tiene exactamente 4 dígitos.",
    "Nombre completo del titular": "Escribe el nombre completo del titular.",
    "Correo electrónico": "Escribe un correo válido, por ejemplo nombre@correo.com.",
    CURP: "La CURP tiene 18 caracteres.",
    "Compañía actual": "Elige tu compañía actual.",
    "ICCID de tu nueva SIM (opcional)":
      "El ICCID tiene 19 o 20 dígitos, empieza con 89 y debe escribirse completo.",
  };
  for (const [label, message] of Object.entries(messages)) {
    const field = form.getByLabel(label);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    await expect(page.locator(`[id="${describedBy.split(" ")[0]}"]`)).toHaveText(message);
  }
  await expect(
    form.getByText("Para continuar acepta la política de portabilidad y el aviso de privacidad."),
  ).toBeVisible();
  for (const [label, value] of Object.entries(values)) {
    if (label.startsWith("NIP")) continue;
    await expect(form.getByLabel(label)).toHaveValue(value);
  }
  if (withoutJs) {
    // The server never sends the NIP back and says so.
    await expect(form.getByLabel("NIP de portabilidad (4 dígitos)")).toHaveValue("");
    await expect(
      form.getByText("Por tu seguridad no conservamos el NIP: vuelve a escribirlo."),
    ).toBeVisible();
    expect(await page.content()).not.toContain("98a7");
  }
  await expectNoAxeViolations(page);

  // A wrong CURP check digit is its own message.
  await form.getByLabel("CURP").fill("GOMA850312MDFRRN08");
  await submitRequest(page);
  await expect(form.getByText("Esa CURP no es válida. Revisa cada carácter.")).toBeVisible();
});

test("a second request for a number with an open one learns nothing of the open one", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const phoneNumber = uniquePhoneNumber();
  await page.goto("/portabilidad");
  await fillRequest(page, phoneNumber);
  await submitRequest(page);
  await expect(page).toHaveURL(/solicitud=POR-/);
  const folio = (await page.getByTestId("portability-folio").first().textContent()) ?? "";
  expect(folio).toMatch(/^POR-/);

  // Someone else, in another browser, asks to port the same number.
  const stranger = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
  });
  const other = await stranger.newPage();
  try {
    await other.goto("/portabilidad");
    const email = await fillRequest(other, phoneNumber);
    const bodies = recordResponses(other);
    const refused = other.waitForResponse((response) => response.request().method() === "POST");
    await submitRequest(other);
    expect((await refused).status()).toBe(409);

    const problem = other.getByTestId("portability-problem");
    await expect(problem).toContainText(
      "Este número ya tiene una solicitud de portabilidad en proceso",
    );
    const form = requestForm(other);
    await expect(form.getByLabel("Número a portar (10 dígitos)")).toHaveValue(spaced(phoneNumber));
    await expect(form.getByLabel("Correo electrónico")).toHaveValue(email);
    await expect(form.getByLabel("CURP")).toHaveValue(CURP.toLowerCase());
    await expect(form.getByLabel("NIP de portabilidad (4 dígitos)")).toHaveValue("");
    await expect(
      form.getByText("Por tu seguridad no conservamos el NIP: vuelve a escribirlo."),
    ).toBeVisible();
    // Neither the open request's folio nor anything else of it reaches the other browser (the
    // lookup's example folio, POR-2026-000007, is in every page).
    const withoutExample = (text: string) => text.replaceAll("POR-2026-000007", "");
    expect(withoutExample(await other.content())).not.toContain(folio);
    expect(await other.content()).not.toContain(NIP);
    for (const body of await bodies()) {
      expect(withoutExample(body)).not.toContain(folio);
      expect(body).not.toContain(NIP);
    }
    await expectNoAxeViolations(other);

    // The message points to the status lookup, which asks for the folio.
    await problem.getByRole("link", { name: "Consultar el estado de una solicitud" }).click();
    await expect(lookupForm(other).getByLabel("Folio")).toHaveValue("");
  } finally {
    await stranger.close();
  }
});

test("the status lookup explains a malformed folio or number", async ({ page }, testInfo) => {
  const withoutJs = testInfo.project.name === "js-disabled";
  await page.goto("/portabilidad");
  const refused = withoutJs
    ? page.waitForResponse((response) => response.url().includes("folio="))
    : null;
  await lookUp(page, "PED-2026-000001", "12 34");
  if (refused) expect((await refused).status()).toBe(400);
  const form = lookupForm(page);
  await expect(form.getByText("El folio tiene la forma POR-2026-000007.")).toBeVisible();
  await expect(
    form.getByText("El número debe tener 10 dígitos, sin lada de país (por ejemplo 55 1234 5678)."),
  ).toBeVisible();
  await expect(form.getByLabel("Folio")).toHaveValue("PED-2026-000001");
  await expect(form.getByLabel("Número a portar")).toHaveValue("12 34");
  await expectNoAxeViolations(page);
});

test("a result link opened in another browser shows no personal data", async ({ page }) => {
  const response = await page.goto("/portabilidad?solicitud=POR-2026-000001");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("region", { name: "Recibimos tu solicitud" })).toHaveCount(0);
  await expect(page.getByText(/solo se muestra durante una hora/)).toBeVisible();
  await expect(lookupForm(page).getByLabel("Folio")).toHaveValue("POR-2026-000001");
});

test("a request form this browser no longer recognises is refused once, then sent again it is received", async ({
  page,
  context,
}) => {
  await page.goto("/portabilidad");
  const email = await fillRequest(page, uniquePhoneNumber());
  // The browser loses what it held of the form (its cookie expired, or a sign-out in another tab).
  await context.clearCookies();
  await submitRequest(page);
  const problem = page.getByTestId("portability-problem");
  await expect(problem).toContainText("Este formulario ya no es válido en este navegador.");
  const form = requestForm(page);
  await expect(form.getByLabel("Correo electrónico")).toHaveValue(email);
  await form.getByLabel("NIP de portabilidad (4 dígitos)").fill(NIP);
  await submitRequest(page);
  await expect(page).toHaveURL(/solicitud=POR-/);
  await expect(page.getByTestId("portability-folio").first()).toHaveText(/^POR-\d{4}-\d{6}$/);
});

test("a signed-in customer's portability requests are listed in Mi cuenta with their folio and status", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await createCustomer(request, "porta-cuenta", uniqueRequestEmail());
  // As a guest, with the e-mail the account proved.
  await page.goto("/portabilidad");
  await fillRequest(page, uniquePhoneNumber(), customer.email);
  await submitRequest(page);
  const asGuest = (await page.getByTestId("portability-folio").first().textContent()) ?? "";
  expect(asGuest).toMatch(/^POR-\d{4}-\d{6}$/);

  // Signed in, with another address for the notices.
  await signInTo(page, customer, "/portabilidad");
  const signedInNumber = uniquePhoneNumber();
  await fillRequest(page, signedInNumber);
  await submitRequest(page);
  const signedIn = (await page.getByTestId("portability-folio").first().textContent()) ?? "";
  expect(signedIn).toMatch(/^POR-\d{4}-\d{6}$/);

  await page.goto("/my-account");
  const requests = page.getByTestId("account-portability-request");
  await expect(requests).toHaveCount(2);
  await expect(requests.first()).toContainText(signedIn);
  await expect(requests.first()).toContainText(
    `${signedInNumber.slice(0, 2)} •••• ${signedInNumber.slice(6)}`,
  );
  await expect(requests.first()).toContainText("Recibida");
  await expect(requests.nth(1)).toContainText(asGuest);
  // Never the NIP, the CURP or the whole number.
  const html = await page.content();
  expect(html).not.toContain(CURP);
  expect(html).not.toContain(signedInNumber);
});
