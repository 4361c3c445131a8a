import { expect, test, type Page } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { expectNoAxeViolations } from "./support/axe";
import {
  buyEsim,
  cartWith,
  fillCheckout,
  submitCheckout,
  uniqueEmail,
  uniqueHolder,
} from "./support/commerce";

// Issue 27, decision 0101: the checkout asks who will hold the lines; each line the order
// activates is registered to that holder with its own folio, shown on the order's page.

/** The message next to a holder's field of the checkout form. */
const holderFieldError = (page: Page, field: string) =>
  page.locator(`div:has(> input[name="holder.${field}"])`).getByTestId("field-error");

test("an eSIM bought with a holder: once installed, its line shows its registration folio", async ({
  page,
}) => {
  await buyEsim(page, uniqueEmail("titular"));
  await page.getByRole("button", { name: "Simular instalación (entorno de pruebas)" }).click();
  const esim = page.getByTestId("esim-activation");
  // The line, then its registration, are made by the workers a moment later: looked at again.
  await expect(async () => {
    if (!(await esim.getByTestId("line-registration-folio").isVisible())) await page.reload();
    await expect(esim.getByTestId("line-registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(esim.getByTestId("line-registration")).toHaveAttribute("data-state", "registered");
  await expect(esim.getByTestId("line-registration")).toContainText(
    "Registrada a nombre de su titular con el folio",
  );
  await expect(esim.getByTestId("line-registration-date")).toHaveText(
    /^el \d{1,2} de \p{L}+ de \d{4}.*\d{1,2}:\d{2}.*\(hora de la Ciudad de México\)\.$/u,
  );
  await expectNoAxeViolations(page);
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
