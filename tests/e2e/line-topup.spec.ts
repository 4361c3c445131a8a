import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { tcpProxy } from "../support/tcp-proxy";
import { startTmfStandIn, type TmfStandIn } from "../support/tmf-stand-in";
import { expectNoAxeViolations } from "./support/axe";
import { payWithCard, TEST_CARDS, TOPUP_RECEIPT_URL } from "./support/commerce";

// Issue 26: a paid top-up reaches its line, once. On the shared server the BSS is the embedded
// simulator, which has every number as a sandbox but for its test ranges (decision 0090):
// 99 0000 NNNN unknown, 99 0001 NNNN suspended. The BSS going down needs a server of its own,
// on the TMF adapter, with the stand-in behind a proxy the test cuts.

/** A number of the simulator's sandbox nobody else in this run tops up. */
function sandboxLine() {
  return `33${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

/** A number of one of the simulator's test ranges ("990000" unknown, "990001" suspended). */
function testRangeLine(range: "990000" | "990001") {
  return `${range}${String(Math.floor(Math.random() * 1e4)).padStart(4, "0")}`;
}

const mexicoCityDate = new Intl.DateTimeFormat("es-MX", {
  dateStyle: "long",
  timeZone: "America/Mexico_City",
});
const DAY = 24 * 60 * 60 * 1000;

/** The day, in Mexico City, `days` after `from` (an instant in ms). */
function dayAfter(from: number, days: number): string {
  return mexicoCityDate.format(new Date(from + days * DAY));
}

async function fillTopup(page: Page, line: string, amount: string) {
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: new RegExp(`^\\${amount}(?![\\d.,])`) }).check();
}

/** Sends the form and answers the status of the form's own answer (not the redirect's). */
async function submitTopup(page: Page): Promise<number> {
  // Without JavaScript the form posts to /recarga; with it, React Router fetches /recarga.data.
  const answer = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" &&
      /^\/recarga(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  return (await answer).status();
}

/** The receipt, looked at again until its top-up is applied to the line. */
async function waitUntilApplied(page: Page, timeout = 20_000) {
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("topup-application-state")).toHaveText("Aplicada a tu línea", {
      timeout: 1_000,
    });
  }).toPass({ timeout });
}

test("a paid top-up is applied to its line: the receipt shows the new vigencia and data, and a second one extends it", async ({
  page,
}) => {
  const line = sandboxLine();
  const started = Date.now();
  await page.goto("/recarga");
  await fillTopup(page, line, "$200");
  await submitTopup(page);
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await waitUntilApplied(page);
  // A line with no package gets the $200 plan: 30 days and 10 GB from now.
  const firstEnd = [dayAfter(started, 30), dayAfter(Date.now(), 30)];
  await expect(page.getByTestId("topup-valid-until")).toHaveText(
    new RegExp(`^Vigencia de 30 días: hasta el (${firstEnd.join("|")})\\.$`),
  );
  await expect(page.getByTestId("topup-line-data")).toHaveText(
    "Datos disponibles en tu línea: 10 GB de 10 GB.",
  );
  await expectNoAxeViolations(page);

  // $100 more before the vigencia ends: 15 days after the 30, and 3 GB on top.
  const again = Date.now();
  await page.goto("/recarga");
  await fillTopup(page, line, "$100");
  await submitTopup(page);
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  await waitUntilApplied(page);
  const secondEnd = [dayAfter(started, 45), dayAfter(again, 45)];
  await expect(page.getByTestId("topup-valid-until")).toHaveText(
    new RegExp(`^Vigencia de 15 días: hasta el (${secondEnd.join("|")})\\.$`),
  );
  await expect(page.getByTestId("topup-line-data")).toHaveText(
    "Datos disponibles en tu línea: 13 GB de 13 GB.",
  );
});

test("a number the operator does not know is refused before paying, next to the field, the values kept", async ({
  page,
}) => {
  const unknown = testRangeLine("990000");
  await page.goto("/recarga");
  await fillTopup(page, unknown, "$50");
  expect(await submitTopup(page)).toBe(400);
  await expect(page).toHaveURL("/recarga");
  const number = page.getByLabel("Número de celular (10 dígitos)");
  await expect(number).toHaveValue(unknown);
  await expect(number).toHaveAccessibleDescription(
    /Este número no es una línea de Conecta Móvil\./,
  );
  await expect(page.getByRole("radio", { name: /^\$50(?![\d.,])/ })).toBeChecked();

  // A suspended line is told so before paying, too.
  const suspended = testRangeLine("990001");
  await number.fill(suspended);
  await page.getByLabel("Vuelve a escribir el número").fill(suspended);
  expect(await submitTopup(page)).toBe(400);
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveAccessibleDescription(
    /Esta línea está suspendida/,
  );
  await expect(page).toHaveURL("/recarga");
});

// ---------------------------------------------------------------------------------------------
// The BSS out of reach: a server of its own on the TMF adapter, the stand-in behind a proxy.
// ---------------------------------------------------------------------------------------------

const SESSION_SECRET = "line-topup-secret-0123456789-abcdefghijklmnopqrs";

async function storeOnTmf(standIn: TmfStandIn, proxyPort: number, testInfo: TestInfo) {
  const port = freePort(testInfo.workerIndex);
  const base = `http://localhost:${port}`;
  const bss = `http://127.0.0.1:${proxyPort}`;
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET,
    BSS_PROVIDER: "tmf",
    BSS_BASE_URL: bss,
    BSS_TOKEN_URL: `${bss}/oauth2/token`,
    BSS_CLIENT_ID: standIn.clientId,
    BSS_CLIENT_SECRET: standIn.clientSecret,
    BSS_TIMEOUT_MS: "1000",
  });
  await waitForHealth(base, server);
  return { base, server };
}

async function browse(browser: Browser, base: string, testInfo: TestInfo) {
  const context = await browser.newContext({
    baseURL: base,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  return { context, page: await context.newPage() };
}

test("the BSS out of reach: the form asks to try again, a paid top-up waits and is applied once when it is back", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const standIn = await startTmfStandIn();
  const line = sandboxLine();
  standIn.addLine({ number: line, offerId: "conecta-100" });
  const proxy = tcpProxy({ host: "127.0.0.1", port: Number(new URL(standIn.baseUrl).port) });
  await proxy.start();
  let server: ServerProcess | null = null;
  const { base, server: started } = await storeOnTmf(standIn, proxy.port, testInfo);
  server = started;
  const { context, page } = await browse(browser, base, testInfo);
  try {
    // Down before paying: nothing is charged, the form asks to try again with what was typed.
    await proxy.cut();
    await page.goto("/recarga");
    await fillTopup(page, line, "$200");
    expect(await submitTopup(page)).toBe(503);
    await expect(page.getByRole("alert").first()).toContainText(
      "No pudimos consultar la línea en este momento y no se hizo ningún cargo.",
    );
    await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(line);
    await expect(page.getByRole("radio", { name: /^\$200(?![\d.,])/ })).toBeChecked();

    // Back: the same form goes on to the payment; down again while the customer pays.
    await proxy.restore();
    await submitTopup(page);
    await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
    await proxy.cut();
    await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
    await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
    await expect(page.getByTestId("topup-application-state")).toHaveText(
      "Se está aplicando a tu línea",
    );
    await expect
      .poll(async () => (await (await fetch(`${base}/readyz`)).json()).lineJobs?.pending, {
        timeout: 10_000,
      })
      .toBe(1);
    await expect
      .poll(() => server!.output.join(""), { timeout: 10_000 })
      .toContain("line job not done, will retry");
    expect(standIn.topups).toHaveLength(0);

    // Back again: the retry applies it, once.
    await proxy.restore();
    await waitUntilApplied(page, 60_000);
    await expect(page.getByTestId("topup-valid-until")).toContainText("Vigencia de 30 días");
    expect(standIn.topups).toHaveLength(1);
    expect((await (await fetch(`${base}/readyz`)).json()).lineJobs).toMatchObject({
      pending: 0,
      refused: 0,
    });

    // The line cannot be read now: the receipt still works and says so.
    await proxy.cut();
    const receipt = await page.reload();
    expect(receipt?.status()).toBe(200);
    await expect(page.getByTestId("topup-application-state")).toHaveText("Aplicada a tu línea");
    await expect(page.getByTestId("topup-line-unavailable")).toContainText(
      "No pudimos consultar tu línea en este momento",
    );
    await expect(page.getByTestId("topup-folio")).toHaveText(/^REC-\d{4}-\d{6}$/);
    expect(standIn.topups).toHaveLength(1);
    expect(server.output.join("")).not.toContain(line);
  } finally {
    // The server first: a test out of time must not leave it running on its port.
    await stopServer(server);
    await proxy.cut().catch(() => undefined);
    await standIn.close();
    await context.close();
  }
});
