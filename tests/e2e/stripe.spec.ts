import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { clabeControlDigit } from "../../app/payments/clabe";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { startStripeStub, type StripeStub } from "../support/stripe-stub";
import {
  cartWith,
  choosePaymentMethod,
  fillCheckout,
  submitCheckout,
  TOPUP_RECEIPT_URL,
  uniqueEmail,
} from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";
import { uniqueLineNumber } from "./support/lines";
import { chooseOtherLine, SAVED_CARD, savedCardRadio } from "./support/saved-cards";

// Issue 13: the storefront on Stripe. The server runs with PAYMENT_PROVIDER=stripe and the
// official SDK pointed at a local stand-in of api.stripe.com and of Stripe's hosted page
// (tests/support/stripe-stub.ts); the stand-in's webhooks are signed with the SDK's own helper.
// Every journey runs with JavaScript and without it.

const WEBHOOK_SECRET = "whsec_e2eStripeSecret0123456789";

let stub: StripeStub;
let server: ServerProcess;
let base: string;

test.beforeAll(async ({ browserName: _ }, testInfo) => {
  stub = await startStripeStub({ webhookSecret: WEBHOOK_SECRET });
  const port = freePort(testInfo.workerIndex);
  base = `http://localhost:${port}`;
  stub.setWebhookUrl(`${base}/payments/webhook/stripe`);
  server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET: "stripe-e2e-session-secret-0123456789-abcdefghij",
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_e2eStripeKey0123456789",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
    STRIPE_TIMEOUT_MS: "1000",
    // The shared limits of the e2e server: many checkouts from one address.
    AUTH_RATE_LIMIT_PER_IP: "10000",
  });
  await waitForHealth(base, server);
});
test.afterAll(async () => {
  await stopServer(server);
  await stub.close();
});

const openContexts: BrowserContext[] = [];
test.afterEach(async () => {
  Object.assign(stub.faults, { delayMs: 0, failWithStatus: 0, holdWebhooks: false });
  await Promise.all(openContexts.splice(0).map((context) => context.close()));
});

async function pageOn(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  openContexts.push(context);
  return context.newPage();
}

/** From an empty cart to Stripe's hosted page, paying by `method`. */
async function checkoutAtStripe(page: Page, method: "card" | "cash" | "spei", plan: string) {
  await cartWith(page, plan);
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail(`stripe-${method}`));
  await choosePaymentMethod(page, method);
  await submitCheckout(page);
  await expect(page).toHaveURL(new RegExp(`^${stub.url}/c/pay/cs_test_`));
  return new URL(page.url()).pathname.split("/").pop()!;
}

async function confirmAtStripe(page: Page) {
  await page.getByRole("button", { name: /^(Pagar|Confirmar)$/ }).click();
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
}

test("a card paid on Stripe's page: back at the order, paid, with only brand and last four", async ({
  browser,
}, testInfo) => {
  const page = await pageOn(browser, testInfo);
  const sessionId = await checkoutAtStripe(page, "card", "Conecta 200");
  expect(stub.sessions.get(sessionId)).toMatchObject({
    amount_total: 20_000,
    currency: "mxn",
    allowed_payment_method_types: ["card"],
    locale: "es-419",
  });
  await confirmAtStripe(page);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(page.getByText("Pagado con Visa terminada en 4242")).toBeVisible();
  expect(stub.events.map((event) => [event.type, event.status])).toContainEqual([
    "checkout.session.completed",
    200,
  ]);
});

test("an OXXO voucher from Stripe: shown on the order with its barcode and Stripe's voucher; paid later", async ({
  browser,
}, testInfo) => {
  const page = await pageOn(browser, testInfo);
  const sessionId = await checkoutAtStripe(page, "cash", "Conecta 300");
  await confirmAtStripe(page);
  await expect(page.getByTestId("order-status")).toHaveText("Pendiente de pago");
  const voucher = page.getByTestId("payment-instructions-cash");
  await expect(voucher.getByTestId("payment-amount")).toHaveText("$300.00 MXN");
  await expect(voucher.getByTestId("payment-reference")).toHaveText(/^\d{32}$/);
  await expect(voucher.getByTestId("payment-barcode")).toBeVisible();
  await expect(
    voucher.getByRole("link", { name: "Ver la ficha en la página del proveedor de pagos" }),
  ).toHaveAttribute("href", new RegExp(`^${stub.url}/oxxo/voucher/pi_test_`));
  // The test environment's simulator belongs to the sandbox; Stripe has none on the store's page.
  await expect(page.getByTestId("payment-simulator")).toHaveCount(0);

  await stub.settleAsync(sessionId, "succeeded");
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  await expect(voucher).toHaveCount(0);
});

test("a SPEI transfer with the webhooks late: the order's page asks Stripe, shows the CLABE, then paid", async ({
  browser,
}, testInfo) => {
  stub.faults.holdWebhooks = true;
  const page = await pageOn(browser, testInfo);
  const sessionId = await checkoutAtStripe(page, "spei", "Conecta 150");
  await confirmAtStripe(page);
  const transfer = page.getByTestId("payment-instructions-spei");
  const clabe = ((await transfer.getByTestId("payment-clabe").textContent()) ?? "").replace(
    /\s/g,
    "",
  );
  expect(Number(clabe[17])).toBe(clabeControlDigit(clabe.slice(0, 17)));
  await expect(transfer.getByTestId("payment-reference")).toHaveText(/^\d{7}$/);
  await expect(transfer.getByTestId("payment-beneficiary")).toHaveText("Conecta Movil SA de CV");

  await stub.settleAsync(sessionId, "succeeded");
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  // The late webhooks, in reverse order, change nothing more.
  await stub.release("reversed");
  expect(stub.events.filter((event) => event.status !== 200)).toEqual([]);
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
});

test("a voucher Stripe reports lapsed cancels the order", async ({ browser }, testInfo) => {
  const page = await pageOn(browser, testInfo);
  const sessionId = await checkoutAtStripe(page, "cash", "Conecta 100");
  await confirmAtStripe(page);
  await stub.settleAsync(sessionId, "failed");
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Cancelado");
  await expect(page.getByTestId("payment-instructions-cash")).toHaveCount(0);
});

test("Stripe too slow: a Spanish 'try again' with the order kept, never a 500; the retry pays it", async ({
  browser,
}, testInfo) => {
  const page = await pageOn(browser, testInfo);
  stub.faults.delayMs = 2_500;
  await cartWith(page, "Conecta 200");
  await page.goto("/checkout");
  await fillCheckout(page, uniqueEmail("stripe-lento"));
  await submitCheckout(page);
  await expect(page).toHaveURL(/\/confirmation\?pedido=/);
  await expect(page.getByRole("alert").or(page.getByRole("status")).first()).toContainText(
    "No pudimos comunicarnos con el servicio de pagos. Tu pedido está guardado",
  );
  await expect(page.getByTestId("order-status")).toHaveText("Pendiente de pago");
  expect(server.output.join("")).not.toMatch(/"level":50/);

  stub.faults.delayMs = 0;
  await page.getByRole("button", { name: /^Continuar al pago$/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${stub.url}/c/pay/cs_test_`));
  await confirmAtStripe(page);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
});

test("the webhook endpoint: Stripe's signature required; the sandbox's endpoint and pages are gone", async ({
  request,
}, testInfo) => {
  test.skip(!testInfo.project.use.javaScriptEnabled, "server-to-server: runs once");
  const payload = JSON.stringify({ id: "evt_forged", type: "checkout.session.completed" });
  const forged = await request.post(`${base}/payments/webhook/stripe`, {
    headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00" },
    data: payload,
  });
  expect(forged.status()).toBe(401);
  expect(await forged.json()).toEqual({ error: "Notificación rechazada: la firma no es válida." });
  const sandbox = await request.post(`${base}/payments/webhook/sandbox`, {
    headers: { "Content-Type": "application/json" },
    data: payload,
  });
  expect(sandbox.status()).toBe(404);
  expect((await request.get(`${base}/sandbox/pago/chk_cualquiera`)).status()).toBe(404);
});

// Issue 29, saved cards on Stripe (decision 0119): the box at the card step makes the account's
// Customer and asks Checkout to save the card off-session; the account lists it; one form pays
// with it (a PaymentIntent confirmed at once, no Stripe page); removing it detaches it at Stripe.
test("a signed-in customer saves a card on Stripe's page, pays the next top-up with it in one form, and removes it", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await pageOn(browser, testInfo);
  const customer = await createCustomer(page.request, "stripe-tarjeta");
  await signInTo(page, customer, "/my-account/recarga");
  await saveCardAtStripe(page, uniqueLineNumber());
  const session = [...stub.sessions.values()].at(-1)!;
  expect(session.customer).toMatch(/^cus_test_/);
  expect(stub.customers.get(session.customer!)?.email).toBe(customer.email);

  await page.goto("/my-account/tarjetas");
  await expect(page.getByTestId("saved-card")).toContainText(SAVED_CARD);
  await expect(page.getByTestId("saved-card")).toContainText("Vence 12/34");

  await page.goto("/my-account/recarga");
  await chooseOtherLine(page);
  const line = uniqueLineNumber();
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$100(?![\d.,])/ }).check();
  await savedCardRadio(page).check();
  const intentsBefore = stub.intents.size;
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await expect(page.getByText(`Pagado con ${SAVED_CARD}`)).toBeVisible();
  const charged = [...stub.intents.values()].slice(intentsBefore);
  expect(charged).toHaveLength(1);
  expect(charged[0]).toMatchObject({
    status: "succeeded",
    customer: session.customer,
    metadata: { charge: "saved_card" },
  });

  await page.goto("/my-account/tarjetas");
  const methodId = charged[0]!.payment_method!;
  await page.getByRole("button", { name: `Quitar ${SAVED_CARD}` }).click();
  await expect(page.getByTestId("saved-cards-empty")).toBeVisible();
  expect(stub.paymentMethods.get(methodId)?.customer).toBeNull();
});

async function saveCardAtStripe(page: Page, line: string) {
  await chooseOtherLine(page);
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(line);
  await page.getByRole("radio", { name: /^\$50(?![\d.,])/ }).check();
  await page.getByLabel(/Guardar esta tarjeta en mi cuenta/).check();
  await page.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stub.url}/c/pay/cs_test_`));
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
}
