import { expect, test, type Page } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { SANDBOX_TEST_DOCUMENT_NUMBERS } from "../../app/registration/id-validation-sandbox.server";
import { expectNoAxeViolations } from "./support/axe";
import { attachPhotos, CIC, PHOTO } from "./support/identification";
import {
  buyEsim,
  cartWith,
  fillCheckout,
  submitCheckout,
  uniqueEmail,
  uniqueHolder,
} from "./support/commerce";

// Issue 27, decision 0101: the checkout asks who will hold the lines; each line the order
// activates is registered to that holder with its own folio, shown on the order's page. Issue 47,
// decision 0139: once the holder has shown their identification after paying.

/** The message next to a holder's field of the checkout form. */
const holderFieldError = (page: Page, field: string) =>
  page.locator(`div:has(> input[name="holder.${field}"])`).getByTestId("field-error");

/** The order's eSIM installed (sandbox); its line is then activated by the workers. */
async function installEsim(page: Page) {
  await page.getByRole("button", { name: "Simular instalación (entorno de pruebas)" }).click();
}

/** Looks at the order's page again until its eSIM's line shows `state` (made by the workers). */
async function expectLineRegistration(page: Page, state: string) {
  const line = page.getByTestId("esim-activation").getByTestId("line-registration");
  await expect(async () => {
    const shown = (await line.count()) > 0 ? await line.getAttribute("data-state") : null;
    if (shown !== state) await page.reload();
    await expect(line).toHaveAttribute("data-state", state, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/** The message next to a field of the holder's proof form. */
const proofFieldError = (page: Page, name: string) =>
  page
    .getByTestId("holder-proof-form")
    .locator(`div:has(> input[name="${name}"]), fieldset:has(input[name="${name}"])`)
    .getByTestId("field-error");

test("an eSIM's line waits for its holder to show their identification, then shows its registration folio", async ({
  page,
}) => {
  await buyEsim(page, uniqueEmail("titular"));
  // The order asks for the holder's proof, before and after the line is active.
  const notice = page.getByTestId("holder-proof-notice");
  await expect(notice).toHaveAttribute("data-state", "to-prove");
  await expect(notice).toContainText("Para registrar las líneas a nombre de Ana Gómez Martínez");
  await installEsim(page);
  await expectLineRegistration(page, "awaiting-holder");
  await expect(page.getByTestId("esim-activation").getByTestId("line-registration")).toContainText(
    "Falta confirmar la identidad del titular",
  );
  await expect(page.getByTestId("line-registration-folio")).toHaveCount(0);

  await notice.getByRole("link", { name: "Confirmar la identidad del titular" }).click();
  await expect(
    page.getByRole("heading", { name: "Confirma la identidad del titular" }),
  ).toBeVisible();
  await expect(page.getByTestId("holder-proof-attempts")).toContainText("3 intentos");
  await expectNoAxeViolations(page);
  await page.getByRole("radio", { name: "Credencial para votar (INE)" }).check();
  await page.getByLabel("Número de la identificación").fill(CIC);
  await attachPhotos(page);
  await page.getByRole("button", { name: "Confirmar la identidad" }).click();

  // Back on the order's page: confirmed, and the line registered by the workers a moment later.
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
  await expect(notice).toHaveAttribute("data-state", "proved");
  await expect(notice).toContainText("Identidad de Ana Gómez Martínez confirmada el");
  await expectLineRegistration(page, "registered");
  const esim = page.getByTestId("esim-activation");
  await expect(esim.getByTestId("line-registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/);
  await expect(esim.getByTestId("line-registration")).toContainText(
    "Registrada a nombre de su titular con el folio",
  );
  await expect(esim.getByTestId("line-registration-date")).toHaveText(
    /^el \d{1,2} de \p{L}+ de \d{4}.*\d{1,2}:\d{2}.*\(hora de la Ciudad de México\)\.$/u,
  );
  await expectNoAxeViolations(page);
});

test("a holder's proof refused: the reason next to its field, three tries, then the way to register in person", async ({
  page,
  browser,
}) => {
  await buyEsim(page, uniqueEmail("titular-rechazado"));
  const orderUrl = page.url();
  await page.getByTestId("holder-proof-link").click();
  const proofUrl = page.url();

  // Nothing typed: each field says what it needs, with a 400 and nothing counted.
  await page.getByRole("button", { name: "Confirmar la identidad" }).click();
  await expect(proofFieldError(page, "document_number")).toBeVisible();
  await expect(proofFieldError(page, "selfie")).toHaveText(
    "Sube una selfie tomada en este momento.",
  );
  await expect(page.getByTestId("holder-proof-attempts")).toContainText("3 intentos");

  // An identification that is not the holder's (the sandbox's test number), twice.
  for (const left of [2, 1]) {
    await page.getByRole("radio", { name: "Credencial para votar (INE)" }).check();
    await page
      .getByLabel("Número de la identificación")
      .fill(SANDBOX_TEST_DOCUMENT_NUMBERS["document-mismatch"].ine);
    await attachPhotos(page);
    await page.getByRole("button", { name: "Confirmar la identidad" }).click();
    await expect(proofFieldError(page, "document_number")).toContainText(
      "La identificación no corresponde al titular",
    );
    await expect(page.getByTestId("error-summary")).toContainText(
      `Intentos que le quedan a este pedido para confirmar la identidad del titular en línea: ${left}.`,
    );
  }
  // A selfie that is the identification's photo again: not a live person.
  await page.getByRole("radio", { name: "Credencial para votar (INE)" }).check();
  await page.getByLabel("Número de la identificación").fill(CIC);
  await page.getByLabel("Foto de la identificación").setInputFiles(PHOTO);
  await page.getByLabel("Selfie", { exact: true }).setInputFiles({ ...PHOTO, name: "selfie.jpg" });
  await page.getByRole("button", { name: "Confirmar la identidad" }).click();
  await expect(page.getByTestId("holder-proof-ended")).toContainText(
    "Las líneas del pedido quedarán sin registro al activarse",
  );
  await expect(page.getByTestId("holder-proof-form")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Registrar mi línea" })).toHaveAttribute(
    "href",
    "/registro-de-linea",
  );

  await page.goto(orderUrl);
  await expect(page.getByTestId("holder-proof-notice")).toHaveAttribute("data-state", "ended");
  await expect(page.getByTestId("holder-proof-notice")).toContainText(
    "No se pudo confirmar en línea la identidad del titular",
  );

  // A browser that did not place the order finds nothing there.
  const stranger = await browser.newContext();
  const response = await (await stranger.newPage()).goto(proofUrl);
  expect(response?.status()).toBe(404);
  await stranger.close();
});

test("the checkout asks who will hold the lines, says why, and links the privacy notice", async ({
  page,
}) => {
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  const holder = page.getByRole("group", { name: "¿Quién será titular de las líneas?" });
  await expect(holder).toBeVisible();
  await expect(holder).toContainText("Desde el 9 de enero de 2026");
  await expect(holder).toContainText("El titular puede ser otra persona");
  await expect(holder.getByRole("link", { name: /aviso de privacidad/ })).toBeVisible();
  // A persona física is asked her identification; a foreigner's passport only when chosen.
  await expect(page.getByLabel("Número de pasaporte del titular")).toBeHidden();
  await page.getByRole("radio", { name: "Persona extranjera (con pasaporte)" }).check();
  await expect(page.getByLabel("Número de pasaporte del titular")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Credencial para votar (INE)" })).toBeHidden();
  await expectNoAxeViolations(page);
});

test("a checkout without the holder, or with a wrong CURP, is answered next to each field, nothing lost", async ({
  page,
}, testInfo) => {
  const withoutJs = testInfo.project.use.javaScriptEnabled === false;
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  const email = uniqueEmail("sin-titular");
  await fillCheckout(page, email);
  // The holder's fields emptied, then a CURP whose check digit is wrong.
  await page.getByLabel("Nombre del titular (como aparece en su identificación)").fill("");
  const holder = uniqueHolder();
  const wrongCurp = holder.curp.slice(0, 17) + ((Number(holder.curp[17]) + 1) % 10);
  await page.getByLabel("CURP del titular").fill(wrongCurp);

  if (!withoutJs) {
    // What the browser sends, posted as it is: the server says the same, with a 400.
    const form = Object.fromEntries(
      await page
        .locator("form")
        .filter({ has: page.getByLabel("CURP del titular") })
        .evaluate((element: HTMLFormElement) => [...new FormData(element)] as [string, string][]),
    );
    const response = await page.request.post("/checkout", {
      form,
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("Escribe el nombre completo tal como aparece en la identificación.");
    expect(html).toContain("El último dígito de la CURP no corresponde a los demás caracteres");
    // No holder at all (a client that leaves it out): each field's message, still a 400.
    delete form["holder.holder_kind"];
    delete form["holder.curp"];
    const bare = await page.request.post("/checkout", {
      form,
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(400);
    expect(await bare.text()).toContain("Escribe la CURP.");
  }

  await submitCheckout(page);
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(holderFieldError(page, "full_name")).toHaveText(
    "Escribe el nombre completo tal como aparece en la identificación.",
  );
  await expect(holderFieldError(page, "curp")).toContainText(
    "El último dígito de la CURP no corresponde a los demás caracteres",
  );
  // Nothing typed is lost.
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
  await expect(page.getByLabel("CURP del titular")).toHaveValue(wrongCurp);

  await page
    .getByLabel("Nombre del titular (como aparece en su identificación)")
    .fill(holder.full_name);
  await page.getByLabel("CURP del titular").fill(holder.curp);
  await page.getByRole("checkbox", { name: /Acepto el contrato de adhesión/ }).check();
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
});
