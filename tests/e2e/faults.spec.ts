import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import {
  expect,
  request,
  test,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import {
  deriveNotificationKey,
  SIGNATURE_HEADER,
  signNotification,
} from "../../app/payments/sandbox/signature.server";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { adminCreateUser, fillSignUp, NEW_PASSWORD, signIn, uniqueEmail } from "./support/auth";
import { cartBadge, cartWith, fillCheckout, payWithCard, submitCheckout } from "./support/commerce";
import { createCustomer } from "./support/customers";

// Issue 8, faults: the database locked by another process, payment notifications replayed,
// forged or early, the identity service going away and coming back, and the server restarting
// mid-journey. Each test runs servers of its own so that it can break them.
test.describe.configure({ mode: "serial" });

const SESSION_SECRET = "faults-session-secret-0123456789-abcdefghijklmnop";
const NOTIFICATION_SECRET = "faults-notification-secret-0123456789-abcdefgh";
const APPROVED_CARD = "4242 4242 4242 4242";

async function running(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET,
    PAYMENT_NOTIFICATION_SECRET: NOTIFICATION_SECRET,
    ...env,
  });
  await waitForHealth(`http://localhost:${port}`, server);
  return server;
}

const openContexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(openContexts.splice(0).map((context) => context.close()));
});

/** A browser page on `base`, with or without JavaScript as the project says. */
async function pageOn(browser: Browser, testInfo: TestInfo, base: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  openContexts.push(context);
  return context.newPage();
}

const openDatabase = (server: ServerProcess) =>
  new Database(path.join(server.dataDir, "storefront.sqlite"));

test("the database held by another process: checkout says so in Spanish, keeps the form, and the retry places one order", async ({
  browser,
}, testInfo) => {
  const port = freePort(testInfo.workerIndex);
  const server = await running({ DB_BUSY_TIMEOUT_MS: "100" }, port);
  const other = openDatabase(server);
  try {
    const page = await pageOn(browser, testInfo, `http://localhost:${port}`);
    await cartWith(page, "Conecta 200");
    await page.goto("/checkout");
    const email = uniqueEmail("bloqueo");
    await fillCheckout(page, email);

    other.exec("BEGIN IMMEDIATE");
    await submitCheckout(page);
    await expect(page.getByRole("alert")).toContainText(
      "No pudimos guardar tus datos en este momento.",
    );
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
    await expect(page.getByLabel("Calle")).toHaveValue("Av. Insurgentes Sur");
    expect(other.prepare("select count(*) as n from orders").get()).toEqual({ n: 0 });
    other.exec("ROLLBACK");

    await page.getByRole("checkbox", { name: /Acepto el contrato de adhesión/ }).check();
    await submitCheckout(page);
    await payWithCard(page, APPROVED_CARD);
    await expect(page.getByText("Pagado", { exact: true })).toBeVisible();
    expect(other.prepare("select count(*) as n from orders").get()).toEqual({ n: 1 });
    expect(server.output.join("")).toContain("order not saved: database unavailable");
  } finally {
    other.close();
    await stopServer(server);
  }
});

test("a payment notification replayed, forged or ahead of the customer is applied once", async ({
  browser,
}, testInfo) => {
  test.skip(!testInfo.project.use.javaScriptEnabled, "server-to-server: runs once");
  const port = freePort(testInfo.workerIndex);
  const base = `http://localhost:${port}`;
  const server = await running({}, port);
  const db = openDatabase(server);
  try {
    const page = await pageOn(browser, testInfo, base);
    await cartWith(page, "Conecta 150");
    await page.goto("/checkout");
    await fillCheckout(page, uniqueEmail("aviso"));
    await submitCheckout(page);
    await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);

    // The sandbox notifies the store before sending the customer back: stop at that redirect.
    const checkoutId = new URL(page.url()).pathname.split("/").pop()!;
    const paid = await page.request.post(page.url(), {
      form: {
        card_number: APPROVED_CARD,
        card_expiry: "12/30",
        card_cvc: "123",
        cardholder_name: "Ana Lopez",
      },
      headers: { Origin: base },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);
    const payment = db
      .prepare("select id, amount, status, reference from payments where provider_reference = ?")
      .get(checkoutId) as { id: string; amount: number; status: string; reference: string };
    expect(payment.status).toBe("approved");
    const orderStatus = () =>
      (
        db.prepare("select status from orders where id = ?").get(payment.reference) as {
          status: string;
        }
      ).status;
    expect(orderStatus()).toBe("paid");

    // The provider delivers the same notification again, three times at once, then the same
    // news under another event id.
    const notification = (eventId: string) =>
      JSON.stringify({
        event_id: eventId,
        checkout_id: checkoutId,
        payment_id: payment.id,
        status: "approved",
        amount: payment.amount,
        currency: "MXN",
        decline_reason: null,
        card_brand: "visa",
        card_last4: "4242",
      });
    const body = notification("evt_replayed");
    const key = deriveNotificationKey(NOTIFICATION_SECRET);
    const deliver = (raw: string, signature: string) =>
      fetch(`${base}/payments/webhook/sandbox`, {
        method: "POST",
        headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature },
        body: raw,
      });
    const replays = await Promise.all(
      [1, 2, 3].map(() => deliver(body, signNotification(key, body))),
    );
    for (const replay of replays) expect(replay.status).toBe(200);
    const sameNews = notification("evt_another");
    expect((await deliver(sameNews, signNotification(key, sameNews))).status).toBe(200);

    // Forged: signed with another key, or a signed body changed afterwards.
    const forgedKey = deriveNotificationKey("someone-else-secret-0123456789-abcdefghijkl");
    const declined = body.replace('"approved"', '"declined"');
    for (const forged of [
      await deliver(declined, signNotification(forgedKey, declined)),
      await deliver(declined, signNotification(key, body)),
    ]) {
      expect(forged.status).toBe(401);
      expect(await forged.json()).toEqual({
        error: "Notificación rechazada: la firma no es válida.",
      });
    }
    await expect
      .poll(() => server.output.join("").match(/payment notification refused/g)?.length ?? 0)
      .toBe(2);

    const payments = db
      .prepare("select status from payments where reference = ?")
      .all(payment.reference);
    expect(payments).toEqual([{ status: "approved" }]);
    expect(orderStatus()).toBe("paid");

    // The customer comes back afterwards and finds the order paid.
    await page.goto(paid.headers().location);
    await expect(page.getByText("Pagado", { exact: true })).toBeVisible();
  } finally {
    db.close();
    await stopServer(server);
  }
});

/**
 * The identity service as production has it: outside the storefront. Here it is the embedded
 * emulator of a second server, reached through a proxy the test can cut.
 */
class IdentityProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: URL,
  ) {}

  async up() {
    this.server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
  }

  async down() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server = null;
  }
}

/** The server's request log lines: each answer's path and status. */
function requestLog(output: string): Array<{ path: string; status: number }> {
  return output
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { path: string; status: number })
    .map(({ path, status }) => ({ path, status }));
}

/** A storefront whose identity service is another server's emulator, behind `proxy`. */
async function storefrontWithIdentityOutside(testInfo: TestInfo) {
  const hostPort = freePort(testInfo.workerIndex);
  const host = await running({}, hostPort);
  const hostBase = `http://localhost:${hostPort}`;
  const identityAdmin = await request.newContext({ baseURL: hostBase });
  const outbox = await (await fetch(`${hostBase}/dev/outbox`)).text();
  const endpoint = new URL(/data-testid="emulator-endpoint">([^<]+)</.exec(outbox)![1]);
  const pool = JSON.parse(
    readFileSync(path.join(host.dataDir, "cognito-local", "embedded-pool.json"), "utf8"),
  ) as { userPoolId: string; clientId: string };
  const proxy = new IdentityProxy(freePort(testInfo.workerIndex), endpoint);
  await proxy.up();
  const storePort = freePort(testInfo.workerIndex);
  const storeEnv = {
    COGNITO_USER_POOL_ID: pool.userPoolId,
    COGNITO_CLIENT_ID: pool.clientId,
    COGNITO_ENDPOINT: `http://127.0.0.1:${proxy.port}/`,
    COGNITO_AUTH_FLOW: "USER_PASSWORD_AUTH",
    COGNITO_TIMEOUT_MS: "1000",
  };
  let store = await running(storeEnv, storePort);
  return {
    /** The identity host's outbox and admin API, for creating customers. */
    identityAdmin,
    proxy,
    base: `http://localhost:${storePort}`,
    output: () => store.output.join(""),
    /** Stops the storefront and starts it again on the same data, secret and port. */
    async restart() {
      await stopServer(store);
      store = await running({ ...storeEnv, DATA_DIR: store.dataDir }, storePort);
    },
    async stop() {
      await stopServer(store);
      await proxy.down();
      await identityAdmin.dispose();
      await stopServer(host);
    },
  };
}

test("the identity service goes away and comes back: the Spanish network message (503, never a 500), sessions kept", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const setup = await storefrontWithIdentityOutside(testInfo);
  try {
    const signedIn = await createCustomer(setup.identityAdmin, "caida");
    const stranger = await createCustomer(setup.identityAdmin, "caida2");
    const page = await pageOn(browser, testInfo, setup.base);
    await page.goto("/auth/sign-in");
    await signIn(page, signedIn.email, signedIn.password);
    await expect(page).toHaveURL(/\/my-account$/);

    await setup.proxy.down();
    const ready = await fetch(`${setup.base}/readyz`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.database).toBe("ok");

    // The signed-in customer keeps their session and their whole account page: an ordinary view
    // asks the identity service nothing (the e-mail from the ID token, MFA kept in the session).
    await page.reload();
    await expect(page).toHaveURL(/\/my-account$/);
    await expect(page.getByTestId("account-email")).toHaveText(signedIn.email);
    await expect(page.getByTestId("account-mfa-status")).toContainText("Desactivada");
    await expect(page.getByText("No pudimos consultar todos los datos de tu cuenta")).toHaveCount(
      0,
    );

    // Another customer signing in, or signing up, is told in Spanish; nothing is created.
    const other = await pageOn(browser, testInfo, setup.base);
    await other.goto("/auth/sign-in");
    await signIn(other, stranger.email, stranger.password);
    await expect(other.getByTestId("form-alert-message")).toContainText("Error de red");
    await expect(other.getByLabel("Correo electrónico")).toHaveValue(stranger.email);

    const newcomer = uniqueEmail("caida-alta");
    const signUp = await pageOn(browser, testInfo, setup.base);
    await fillSignUp(signUp, newcomer);
    await expect(signUp.getByTestId("form-alert-message")).toContainText("Error de red");

    await setup.proxy.up();
    await expect.poll(async () => (await fetch(`${setup.base}/readyz`)).status).toBe(200);
    await signIn(other, stranger.email, stranger.password);
    await expect(other).toHaveURL(/\/my-account$/);
    await page.reload();
    await expect(page.getByText("No pudimos consultar todos los datos de tu cuenta")).toHaveCount(
      0,
    );
    // Nothing half-made during the outage: the same email signs up now.
    await fillSignUp(signUp, newcomer);
    await expect(signUp).toHaveURL(/\/auth\/confirm-sign-up$/);
    // An unreachable service is answered 503 (the form, its Spanish message, nothing else);
    // never a 500 or an error page, and nothing logged as a server error.
    const answers = requestLog(setup.output());
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503)).toEqual([]);
    expect(
      answers.some(
        (answer) => /^\/auth\/sign-in(\.data)?$/.test(answer.path) && answer.status === 503,
      ),
    ).toBe(true);
    expect(setup.output()).not.toMatch(/"level":50/);
  } finally {
    await setup.stop();
  }
});

test("the server restarts mid-journey: the cart and the pending sign-in step survive", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const setup = await storefrontWithIdentityOutside(testInfo);
  try {
    const email = uniqueEmail("reinicio");
    await adminCreateUser(setup.identityAdmin, email, "Temporal-1x");
    const page = await pageOn(browser, testInfo, setup.base);
    await cartWith(page, "Conecta 100");
    await page.goto("/auth/sign-in");
    await signIn(page, email, "Temporal-1x");
    await expect(page).toHaveURL(/\/auth\/force-new-password$/);

    await setup.restart();

    await page.getByLabel("Nueva contraseña").fill(NEW_PASSWORD);
    await page.getByLabel("Confirma la contraseña").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Guardar contraseña" }).click();
    await expect(page).toHaveURL(/\/auth\/verify-user|\/my-account/);
    await expect(cartBadge(page)).toHaveText("1");
  } finally {
    await setup.stop();
  }
});
