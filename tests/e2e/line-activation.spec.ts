import { expect, test, type Page } from "@playwright/test";
import { misprintedIccid, testIccid } from "../support/iccids";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { opsOn } from "./support/own-server";
import { expectNoAxeViolations } from "./support/axe";
import { createCustomer, signInTo } from "./support/customers";
import {
  buyEsim,
  cartWith,
  fillCheckout,
  payWithCard,
  submitCheckout,
  TEST_CARDS,
  uniqueEmail,
} from "./support/commerce";

// Where a customer's line comes from (decision 0092): an eSIM installed, a physical SIM activated
// at /activar with the ICCID the operator recorded when shipping it. The line is made by the
// line-jobs worker with the (simulated) BSS, a moment after the page that asked for it.

/** The line's number once the worker made it: looked at again (a refresh, as a customer would). */
async function expectLineNumber(page: Page, within: ReturnType<Page["getByTestId"]>) {
  await expect(async () => {
    if (!(await within.getByTestId("line-number").isVisible())) {
      await page.reload();
    }
    await expect(within.getByTestId("line-number")).toHaveText(/^Tu número: 55 99\d{2} \d{4}$/, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
}

test("an installed eSIM becomes a line with the plan bought: the order page shows its number", async ({
  page,
}) => {
  await buyEsim(page, uniqueEmail("linea-esim"));
  const esim = page.getByTestId("esim-activation");
  await expect(esim.getByTestId("line-activation")).toHaveCount(0);

  await page.getByRole("button", { name: "Simular instalación (entorno de pruebas)" }).click();
  await expect(esim.getByTestId("esim-installed")).toContainText("Instalada el");
  await expect(esim.getByTestId("line-activation")).toBeVisible();
  await expectLineNumber(page, esim);
  await expect(esim.getByTestId("line-activation")).toHaveAttribute("data-state", "active");
  await expectNoAxeViolations(page);
});

test("a signed-in customer's installed eSIM appears among their lines with the plan's balance", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, "linea-cuenta");
  await signInTo(page, customer, "/my-account/lineas");
  await expect(page.getByTestId("line-card")).toHaveCount(0);
  await buyEsim(page, customer.email);
  await page.getByRole("button", { name: "Simular instalación (entorno de pruebas)" }).click();
  const esim = page.getByTestId("esim-activation");
  await expectLineNumber(page, esim);
  const number = (await esim.getByTestId("line-number").textContent())!.replace(/\D/g, "");

  // The account's lines: the new one, with the plan it was bought with (Conecta 200: 10 GB, 30 days).
  await page.goto("/my-account/lineas");
  const card = page.locator(`[data-testid="line-card"][data-number="${number}"]`);
  await expect(card.getByTestId("line-status")).toHaveText("Activa");
  await expect(card.getByTestId("data-left")).toHaveText("Te quedan 10 GB");
  await expect(card.getByTestId("line-days-left")).toHaveText("Quedan 30 días");
  await card.getByRole("link", { name: /^Ver detalle de la línea/ }).click();
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);
  await expect(page.getByTestId("line-package")).toHaveText("Conecta 200");
  await expect(page.getByTestId("data-used")).toHaveText("Usaste 0 MB de 10 GB");
  // The overview leads with it too.
  await page.goto("/my-account");
  await expect(
    page.getByTestId("account-my-lines").locator(`[data-number="${number}"]`),
  ).toBeVisible();
});

// The operator's CLI records the shipped SIM's ICCID in the server's own database: a server of
// this test's own (its DATA_DIR), one per project.
const SESSION_SECRET = "line-activation-secret-0123456789-abcdefghijklmno";

const ops = (server: ServerProcess, args: string[]) => opsOn(server, SESSION_SECRET, args);

test("a shipped SIM is activated at /activar with the ICCID printed on it; a wrong one is told in Spanish", async ({
  browser,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = startServer({ NODE_ENV: "test", PORT: String(port), SESSION_SECRET });
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled, locale: "es-MX" });
  try {
    await waitForHealth(base, server);
    const page = await context.newPage();
    await cartWith(page, "Conecta 150");
    await page.goto("/checkout");
    await fillCheckout(page, uniqueEmail("linea-sim"));
    await submitCheckout(page);
    await payWithCard(page, TEST_CARDS.approved);
    await expect(page.getByTestId("order-status")).toHaveText("Pagado");
    const order = page.url();
    const folio = (await page.getByTestId("order-folio").textContent())!;
    await expect(page.getByTestId("shipped-sim-lines")).toHaveCount(0);

    const iccid = testIccid(javaScriptEnabled ? 4101 : 4102);
    expect(ops(server, ["enviar", folio, "--guia", "EST123", "--iccid", iccid])).toContain(
      `ICCID ${iccid}`,
    );

    // The order page leads to /activar.
    await page.goto(order);
    const sims = page.getByTestId("shipped-sim-lines");
    await expect(sims.getByTestId("shipped-sim")).toContainText("Aún sin activar.");
    await sims.getByRole("link", { name: "Activar mi SIM" }).click();
    await expect(page).toHaveURL(`${base}/activar`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Activa tu SIM");
    await expectNoAxeViolations(page);

    const field = page.getByLabel("ICCID de tu SIM");
    const submit = page.getByRole("button", { name: "Activar mi SIM" });
    // A digit misread: said next to the field, before anything is looked up.
    await field.fill(misprintedIccid(4101));
    await submit.click();
    await expect(page.getByTestId("field-error").first()).toHaveText(
      "Ese ICCID no es válido: revisa que cada dígito coincida con el de la tarjeta de tu SIM.",
    );
    // A real ICCID of no SIM shipped: the same answer whoever's it might be.
    await field.fill(testIccid(4999));
    await submit.click();
    await expect(page.getByTestId("field-error").first()).toContainText(
      "No encontramos una SIM de Conecta Móvil enviada con ese ICCID.",
    );
    expect(
      (await page.request.post("/activar", { form: { iccid: testIccid(4998) } })).status(),
    ).toBe(404);

    // As printed on the card, in groups.
    await field.fill(`${iccid.slice(0, 4)} ${iccid.slice(4, 8)} ${iccid.slice(8)}`);
    await submit.click();
    await expect(page).toHaveURL(`${base}/activar`);
    const started = page.getByTestId("started-activation");
    await expect(started).toContainText("SIM del plan Conecta 150");
    await expectLineNumber(page, started);
    const number = (await started.getByTestId("line-number").textContent())!;
    await expectNoAxeViolations(page);

    // The order page shows the same line.
    await page.goto(order);
    await expect(sims.getByTestId("line-number")).toHaveText(number);
    await expect(sims.getByRole("link", { name: "Activar mi SIM" })).toHaveCount(0);
    expect(ops(server, ["lineas"])).toMatch(/^5599\d{6}\s+Activa\s+Conecta 150/m);
  } finally {
    await context.close();
    await stopServer(server);
  }
});
