import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  ORDER_CONFIRMATION_URL,
  simulateVoucher,
  submitCheckout,
  TOPUP_RECEIPT_URL,
  uniqueEmail,
} from "./support/commerce";

/**
 * The sandbox's payment page in a production test environment (NODE_ENV=production on the
 * sandbox, decisions 0058 and 0081): only the browser the store sent to pay may use it. A server
 * of its own; the shared one runs NODE_ENV=test, where anyone may.
 */

let server: ServerProcess;
let base: string;

test.beforeAll(async () => {
  const port = freePort(test.info().workerIndex);
  base = `http://localhost:${port}`;
  server = startServer({
    NODE_ENV: "production",
    PORT: String(port),
    SESSION_SECRET: "sandbox-payer-secret-0123456789-abcdefghijklmnop",
    LOG_LEVEL: "warn",
    ...productionTestEnvironment(base),
  });
  await waitForHealth(base, server);
});

test.afterAll(async () => {
  if (server) await stopServer(server);
});

function newBrowser(browser: Browser, javaScriptEnabled: boolean) {
  return browser.newContext({ baseURL: base, javaScriptEnabled, locale: "es-MX" });
}

/** Someone who only has the page's address: they post to it as a script would, then open it. */
async function strangerIsRefused(stranger: BrowserContext, simulator: string, intent: string) {
  const page = await stranger.newPage();
  const posted = await page.request.post(simulator, {
    form: { intent },
    headers: { Origin: base },
    maxRedirects: 0,
  });
  expect(posted.status()).toBe(403);
  expect(await posted.text()).toContain("Este pago se abrió en otro navegador");
  const opened = await page.goto(simulator);
  expect(opened?.status()).toBe(403);
  await expect(
    page.getByRole("heading", { level: 1, name: "Este pago se abrió en otro navegador" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Simular/ })).toHaveCount(0);
  await expect(page.getByTestId("sandbox-reference")).toHaveCount(0);
}

async function simulatorAddress(page: Page) {
  const href = await page.getByTestId("payment-simulator").getAttribute("href");
  expect(href).toMatch(/^\/sandbox\/pago\/chk_[\w-]+$/);
  return href!;
}

test("a cash voucher: a browser that only knows the checkout id can neither mark it paid nor expire it; the buyer's can", async ({
  browser,
  javaScriptEnabled,
}) => {
  const buyer = await newBrowser(browser, javaScriptEnabled);
  const stranger = await newBrowser(browser, javaScriptEnabled);
  try {
    const page = await buyer.newPage();
    await cartWith(page, "Conecta 200");
    await page.goto("/checkout");
    await fillCheckout(page, uniqueEmail("ficha-ajena"));
    await choosePaymentMethod(page, "cash");
    await submitCheckout(page);
    await expect(page).toHaveURL(ORDER_CONFIRMATION_URL);
    const simulator = await simulatorAddress(page);

    await strangerIsRefused(stranger, simulator, "paid");
    await strangerIsRefused(stranger, simulator, "expired");
    await page.reload();
    await expect(page.getByTestId("order-status")).toHaveText("Pendiente de pago");

    await simulateVoucher(page, /^Simular pago en tienda$/);
    await expect(page).toHaveURL(ORDER_CONFIRMATION_URL);
    await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  } finally {
    await Promise.all([buyer.close(), stranger.close()]);
  }
});

test("a top-up's SPEI transfer: its receipt opens anywhere, its simulator only in the browser that paid", async ({
  browser,
  javaScriptEnabled,
}) => {
  const buyer = await newBrowser(browser, javaScriptEnabled);
  const stranger = await newBrowser(browser, javaScriptEnabled);
  try {
    const page = await buyer.newPage();
    await page.goto("/recarga");
    const line = `56${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    await page.getByLabel("Número de celular (10 dígitos)").fill(line);
    await page.getByLabel("Vuelve a escribir el número").fill(line);
    await page.getByRole("radio", { name: /^\$50(?![\d.,])/ }).check();
    await choosePaymentMethod(page, "spei");
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
    const simulator = await simulatorAddress(page);

    // The receipt's address is its key: the stranger sees it, simulator link included.
    const receipt = await stranger.newPage();
    await receipt.goto(page.url());
    await expect(receipt.getByTestId("topup-status")).toHaveText("Pendiente de pago");
    await strangerIsRefused(stranger, simulator, "expired");
    await page.reload();
    await expect(page.getByTestId("topup-status")).toHaveText("Pendiente de pago");

    await simulateVoucher(page, /^Simular transferencia recibida$/);
    await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
    await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  } finally {
    await Promise.all([buyer.close(), stranger.close()]);
  }
});
