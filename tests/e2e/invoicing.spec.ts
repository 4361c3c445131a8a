import { expect, test, type Page } from "@playwright/test";
import { rfcCheckDigit } from "../../app/registration/rfc";
import { BASE_URL } from "../../playwright.config";
import { expectNoAxeViolations } from "./support/axe";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  payWithCard,
  simulateVoucher,
  submitCheckout,
  TEST_CARDS,
  TOPUP_RECEIPT_URL,
  uniqueEmail,
} from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";

/**
 * Issue 29: a customer invoices what they paid for at /facturacion, with JavaScript and without:
 * a paid order as a persona física, a top-up as a persona moral; downloads the XML and the PDF,
 * receives both by e-mail; asking again (even twice at once) gives the same invoice; each wrong
 * field is refused next to it. The server runs the invoicing sandbox (no fiscal seal).
 */

const two = (value: number) => String(value).padStart(2, "0");
const random = (from: number, to: number) => from + Math.floor(Math.random() * (to - from + 1));

/** An RFC SAT could have given Ana Gómez Martínez (GOMA…), with a random date and homoclave. */
function fisicaRfc(): string {
  const body = `GOMA${two(random(50, 99))}${two(random(1, 12))}${two(random(1, 28))}${String.fromCharCode(65 + random(0, 25))}${random(1, 9)}`;
  return body + rfcCheckDigit(body);
}

/** A company's RFC (12 characters). */
function moralRfc(): string {
  const body = `CNO${two(random(0, 25))}${two(random(1, 12))}${two(random(1, 28))}${String.fromCharCode(65 + random(0, 25))}${random(1, 9)}`;
  return body + rfcCheckDigit(body);
}

const FISICA = {
  name: "Ana Gómez Martínez",
  regimen: "612",
  postalCode: "03100",
  uso: "G03",
};
const MORAL = {
  name: "Comercializadora del Norte",
  regimen: "601",
  postalCode: "64000",
  uso: "I06",
};

async function fillFiscalData(
  page: Page,
  data: { rfc: string; name: string; regimen: string; postalCode: string; uso: string },
  email: string,
) {
  await page.getByLabel("RFC", { exact: true }).fill(data.rfc);
  await page.getByLabel("Nombre o razón social").fill(data.name);
  await page.getByLabel("Régimen fiscal").selectOption(data.regimen);
  await page.getByLabel("Código postal fiscal").fill(data.postalCode);
  await page.getByLabel("Uso del CFDI").selectOption(data.uso);
  await page.getByLabel("Correo para recibir la factura").fill(email);
}

function emitButton(page: Page) {
  return page.getByRole("button", { name: "Emitir mi factura" });
}

/** The form as the browser would send it, for the same request sent over HTTP. */
async function formData(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(
    await page
      .locator("form")
      .filter({ has: emitButton(page) })
      .evaluate((element: HTMLFormElement) => [...new FormData(element)] as [string, string][]),
  );
}

/** The field's message under it. */
function fieldError(page: Page, label: string) {
  return page
    .locator("div")
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .last()
    .getByTestId("field-error");
}

/** How many invoice e-mails of the purchase `folio` the development outbox holds for `email`. */
async function invoiceMails(page: Page, email: string, folio: string): Promise<number> {
  const html = await (await page.request.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).text();
  return html
    .split(`data-testid="outbox-mail-subject">Tu factura FAC-`)
    .filter((row) => new RegExp(`^\\d{4}-\\d{6} de la compra ${folio}<`).test(row)).length;
}

/** The invoice e-mail to `email`: its subject row in the development outbox, with its files. */
async function invoiceMail(page: Page, email: string, folio: string) {
  let html = "";
  await expect
    .poll(
      async () => {
        html = await (await page.request.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).text();
        return html.includes(`de la compra ${folio}`);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return html;
}

test("a paid order invoiced as a persona física: the XML and PDF, the e-mail, and the same invoice again", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("factura-pf");
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillCheckout(page, email);
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  const folio = (await page.getByTestId("order-folio").textContent())!;

  await page.getByTestId("order-invoice-link").click();
  await expect(page).toHaveURL(/\/facturacion\?pedido=/);
  await expect(page.getByTestId("invoice-purchase-summary")).toContainText(folio);
  await expect(page.getByTestId("invoice-deadline")).toContainText("Puedes facturarla hasta el");
  // The last day, not the next day's "12:00 a.m." (issue 48): the end of next month's last day.
  await expect(page.getByTestId("invoice-deadline")).toHaveText(
    /^Puedes facturarla hasta el (28|29|30|31) de [a-z]+ de \d{4}, inclusive \(hora de la Ciudad de México\)\.$/,
  );
  await expectNoAxeViolations(page);

  const rfc = fisicaRfc();
  await fillFiscalData(page, { rfc, ...FISICA }, email);
  await page.getByRole("radio", { name: "Tarjeta de crédito" }).check();
  await emitButton(page).click();

  const uuid = page.getByTestId("invoice-uuid");
  await expect(uuid).toHaveText(
    /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/,
  );
  const issuedUuid = (await uuid.textContent())!;
  await expect(page.getByTestId("invoice-receiver")).toHaveText(FISICA.name);
  await expect(page.getByTestId("invoice-rfc")).toHaveText(
    `${rfc.slice(0, 4)}•••••••${rfc.slice(-2)}`,
  );
  await expect(page.getByTestId("invoice-total")).toHaveText("$200.00\u00a0MXN");
  await expect(page.getByTestId("invoice-status")).toHaveText("Vigente");
  await expect(page.getByTestId("invoice-sandbox")).toBeVisible();
  // The whole RFC is in the files the customer downloads, never on the page.
  expect(await page.content()).not.toContain(rfc);
  await expectNoAxeViolations(page);

  const xmlResponse = await page.request.get(
    (await page.getByTestId("invoice-xml").getAttribute("href"))!,
  );
  expect(xmlResponse.status()).toBe(200);
  expect(xmlResponse.headers()["content-type"]).toContain("application/xml");
  expect(xmlResponse.headers()["cache-control"]).toContain("no-store");
  const xml = await xmlResponse.text();
  expect(xml).toContain('xmlns:cfdi="http://www.sat.gob.mx/cfd/4"');
  expect(xml).toContain(`Rfc="${rfc}"`);
  expect(xml).toContain('Nombre="ANA GÓMEZ MARTÍNEZ"');
  expect(xml).toContain('RegimenFiscalReceptor="612"');
  expect(xml).toContain('UsoCFDI="G03"');
  expect(xml).toContain('FormaPago="04"');
  expect(xml).toContain('MetodoPago="PUE"');
  expect(xml).toContain('Total="200.00"');
  expect(xml).toContain('ClaveProdServ="83111603"');
  expect(xml).toContain(`UUID="${issuedUuid}"`);
  expect(xml).toContain("SIN VALIDEZ FISCAL");
  const pdfResponse = await page.request.get(
    (await page.getByTestId("invoice-pdf").getAttribute("href"))!,
  );
  expect(pdfResponse.status()).toBe(200);
  expect(pdfResponse.headers()["content-type"]).toBe("application/pdf");
  expect((await pdfResponse.body()).subarray(0, 5).toString()).toBe("%PDF-");

  const mail = await invoiceMail(page, email, folio);
  expect(mail).toMatch(/factura-FAC-\d{4}-\d{6}\.xml \(application\/xml\)/);
  expect(mail).toMatch(/factura-FAC-\d{4}-\d{6}\.pdf \(application\/pdf\)/);
  expect(mail).toContain(issuedUuid);

  // Asked again, with other data even: the same invoice, never a second one.
  const again = await page.request.post(page.url(), {
    form: {
      rfc: fisicaRfc(),
      nombre: FISICA.name,
      regimen: "612",
      codigo_postal: "03100",
      uso: "G03",
      correo: email,
      tarjeta: "credito",
    },
    headers: { Origin: BASE_URL },
  });
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain(issuedUuid);
  await page.reload();
  await expect(page.getByTestId("invoice-uuid")).toHaveText(issuedUuid);
  expect(await invoiceMails(page, email, folio)).toBe(1);
  void javaScriptEnabled;
});

test("a wrong RFC, a régimen its RFC may not hold and a use its régimen may not take are each refused next to the field", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("factura-errores");
  await cartWith(page, "Conecta 100");
  await page.goto("/checkout");
  await fillCheckout(page, email);
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await page.getByTestId("order-invoice-link").click();

  const rfc = fisicaRfc();
  const wrongRfc = rfc.slice(0, 12) + (rfc[12] === "1" ? "2" : "1");
  const cases = [
    {
      data: { ...FISICA, rfc: wrongRfc },
      label: "RFC",
      message: "El dígito verificador del RFC no coincide: revisa que esté bien escrito.",
    },
    {
      data: { ...FISICA, rfc, regimen: "601" },
      label: "Régimen fiscal",
      message:
        "Ese régimen es solo para personas morales y tu RFC es de persona física (13 caracteres).",
    },
    {
      data: { ...MORAL, rfc: moralRfc(), uso: "D01" },
      label: "Uso del CFDI",
      message: "El SAT no permite ese uso del CFDI para el régimen fiscal que elegiste.",
    },
  ];
  for (const { data, label, message } of cases) {
    await fillFiscalData(page, data, email);
    await page.getByRole("radio", { name: "Tarjeta de débito" }).check();
    if (javaScriptEnabled) {
      // The server says the same to what the browser would have sent, with a 400.
      const response = await page.request.post(page.url(), {
        form: await formData(page),
        headers: { Origin: BASE_URL },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(400);
      expect(await response.text()).toContain(message);
      await emitButton(page).click();
    } else {
      const [response] = await Promise.all([
        page.waitForResponse((candidate) => candidate.request().method() === "POST"),
        emitButton(page).click(),
      ]);
      expect(response.status()).toBe(400);
    }
    await expect(fieldError(page, label)).toHaveText(message);
    // What was typed stays.
    await expect(page.getByLabel("Nombre o razón social")).toHaveValue(data.name);
  }

  // The PAC refuses a name that is not the RFC's (the sandbox's rule: a persona física's RFC
  // begins with the name's initials): its reason next to the name, nothing issued.
  await fillFiscalData(page, { ...FISICA, rfc, name: "Beatriz Ruiz Soto" }, email);
  await page.getByRole("radio", { name: "Tarjeta de débito" }).check();
  if (javaScriptEnabled) {
    const response = await page.request.post(page.url(), {
      form: await formData(page),
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    await emitButton(page).click();
  } else {
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === "POST"),
      emitButton(page).click(),
    ]);
    expect(response.status()).toBe(400);
  }
  await expect(fieldError(page, "Nombre o razón social")).toHaveText(
    "El nombre no coincide con el que el SAT tiene para este RFC. Escríbelo exactamente como en tu Constancia de Situación Fiscal.",
  );
  await expect(page.getByTestId("invoice")).toHaveCount(0);

  // Corrected, it is issued.
  await page.getByLabel("Nombre o razón social").fill(FISICA.name);
  await emitButton(page).click();
  await expect(page.getByTestId("invoice-uuid")).toBeVisible();
});

test("a signed-in customer invoices a top-up as a persona moral; the data is saved for the next, and two submissions at once issue one invoice", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const customer = await createCustomer(request, "factura-pm");
  await signInTo(page, customer, "/recarga");
  const line = `56${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$100(?![\d.,])/ }).check();
  await choosePaymentMethod(page, "spei");
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await simulateVoucher(page, /Simular transferencia recibida/);
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  const folio = (await page.getByTestId("topup-folio").textContent())!;

  await page.getByTestId("topup-invoice-link").click();
  await expect(page).toHaveURL(/\/facturacion\?recarga=/);
  // Paid by SPEI: no card to ask about.
  await expect(page.getByRole("radio", { name: "Tarjeta de crédito" })).toHaveCount(0);
  const rfc = moralRfc();
  await fillFiscalData(page, { rfc, ...MORAL }, customer.email);
  await emitButton(page).click();
  await expect(page.getByTestId("invoice-receiver")).toHaveText(MORAL.name);
  const xml = await (
    await page.request.get((await page.getByTestId("invoice-xml").getAttribute("href"))!)
  ).text();
  expect(xml).toContain(`Rfc="${rfc}"`);
  expect(xml).toContain('Nombre="COMERCIALIZADORA DEL NORTE"');
  expect(xml).toContain('RegimenFiscalReceptor="601"');
  expect(xml).toContain('UsoCFDI="I06"');
  expect(xml).toContain('FormaPago="03"');
  expect(xml).toContain('Total="100.00"');
  const mail = await invoiceMail(page, customer.email, folio);
  expect(mail).toMatch(/factura-FAC-\d{4}-\d{6}\.pdf/);

  // The account lists it as invoiced.
  await page.goto("/facturacion");
  await expect(
    page
      .getByTestId("invoice-purchase")
      .filter({ hasText: folio })
      .getByTestId("invoice-purchase-action"),
  ).toHaveText("Ver factura");

  // A second top-up (to the line now saved): the invoice form starts with the data saved, the
  // RFC masked, never shown whole.
  await page.goto("/recarga");
  await expect(page.getByTestId("saved-line").getByRole("radio")).toBeChecked();
  await page.getByRole("radio", { name: /^\$100(?![\d.,])/ }).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  const secondFolio = (await page.getByTestId("topup-folio").textContent())!;
  await page.getByTestId("topup-invoice-link").click();
  await expect(page.getByLabel("Nombre o razón social")).toHaveValue(MORAL.name);
  await expect(page.getByLabel(/Usar mi RFC guardado/)).toBeChecked();
  await expect(page.getByText(`${rfc.slice(0, 4)}••••••${rfc.slice(-2)}`)).toBeVisible();
  expect(await page.content()).not.toContain(rfc);
  await page.getByRole("radio", { name: "Tarjeta de débito" }).check();

  // Sent twice at once (two tabs, a double click): one invoice, one UUID, one e-mail.
  const form = await formData(page);
  const [first, second] = await Promise.all([
    page.request.post(page.url(), { form, headers: { Origin: BASE_URL } }),
    page.request.post(page.url(), { form, headers: { Origin: BASE_URL } }),
  ]);
  expect(first.status()).toBe(200);
  expect(second.status()).toBe(200);
  const uuidOf = (html: string) =>
    /data-testid="invoice-uuid"><span[^>]*>([0-9A-F-]{36})</.exec(html)?.[1];
  const firstUuid = uuidOf(await first.text());
  expect(firstUuid).toBeTruthy();
  expect(uuidOf(await second.text())).toBe(firstUuid);
  await page.reload();
  await expect(page.getByTestId("invoice-uuid")).toHaveText(firstUuid!);
  const secondXml = await (
    await page.request.get((await page.getByTestId("invoice-xml").getAttribute("href"))!)
  ).text();
  expect(secondXml).toContain(`Rfc="${rfc}"`);
  expect(secondXml).toContain('FormaPago="28"');
  await invoiceMail(page, customer.email, secondFolio);
  expect(await invoiceMails(page, customer.email, secondFolio)).toBe(1);
});

test("without the order or the receipt, the folio and e-mail only e-mail a link, whatever they match", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/facturacion?folio=REC-2026-000001");
  await expect(page.getByLabel("Folio de tu pedido o recarga")).toHaveValue("REC-2026-000001");
  await page.getByLabel("Correo electrónico de la compra").fill(uniqueEmail("nadie"));
  await page.getByRole("button", { name: "Enviarme el enlace" }).click();
  await expect(page.getByTestId("invoice-lookup-sent")).toBeVisible();
  await expectNoAxeViolations(page);
  // A purchase's page needs its key: another browser's order or a made-up receipt is a 404.
  expect((await page.request.get("/facturacion?pedido=AAAAAAAAAAAAAAAAAAAAAA")).status()).toBe(404);
  expect((await page.request.get("/facturacion?recarga=AAAAAAAAAAAAAAAAAAAAAA")).status()).toBe(
    404,
  );
  expect(
    (
      await page.request.get("/facturacion/descargar?recarga=AAAAAAAAAAAAAAAAAAAAAA&formato=xml")
    ).status(),
  ).toBe(404);
});
