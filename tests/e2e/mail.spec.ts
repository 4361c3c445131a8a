import { expect, test, type Browser } from "@playwright/test";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { opsOn } from "./support/own-server";
import {
  cartWith,
  fillCheckout,
  payWithCard,
  submitCheckout,
  TEST_CARDS,
  uniqueEmail,
} from "./support/commerce";

// E-mails through a real SMTP server started by the test, and the operator's CLI on the same
// database: each test runs a server of its own (its SMTP_URL, its DATA_DIR).
test.describe.configure({ mode: "serial" });

const SESSION_SECRET = "mail-test-secret-0123456789-abcdefghijklmnopqrstuv";

/** `movableClock`: the test moves the server's clock past the mail queue's retry delays. */
async function storeWith(smtpPort: number, workerIndex: number, { movableClock = false } = {}) {
  const port = freePort(workerIndex);
  const base = `http://localhost:${port}`;
  const server = startServer(
    {
      NODE_ENV: "test",
      PORT: String(port),
      SESSION_SECRET,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: '"Conecta Móvil" <pedidos@conectamovil.test>',
    },
    { movableClock },
  );
  await waitForHealth(base, server);
  return { base, server };
}

const ops = (server: ServerProcess, args: string[]) => opsOn(server, SESSION_SECRET, args);

async function browse(browser: Browser, base: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled, locale: "es-MX" });
  return { context, page: await context.newPage() };
}

test("the order's e-mails leave by SMTP; shipped with npm run ops, the customer sees it and is told", async ({
  browser,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  const smtp = await startSmtpSink();
  const { base, server } = await storeWith(smtp.port, test.info().workerIndex);
  const { context, page } = await browse(browser, base, javaScriptEnabled);
  try {
    const email = uniqueEmail("correo");
    await cartWith(page, "Conecta 200");
    await page.goto("/checkout");
    await fillCheckout(page, email);
    await submitCheckout(page);
    await payWithCard(page, TEST_CARDS.approved);
    const folio = (await page.getByTestId("order-folio").textContent())!;

    const received = await smtp.waitFor((mail) => mail.subject === `Recibimos tu pedido ${folio}`);
    expect(received.to && "text" in received.to ? received.to.text : "").toContain(email);
    expect(received.html).toContain(folio);
    expect(received.text).toContain("$200.00\u00a0MXN");
    const paid = await smtp.waitFor(
      (mail) => mail.subject === `Pago confirmado: tu pedido ${folio}`,
    );
    expect(paid.text).toContain(folio);

    const shipped = ops(server, [
      "enviar",
      folio,
      "--guia",
      "EST123456789MX",
      "--paqueteria",
      "Estafeta",
    ]);
    expect(shipped).toContain(folio);

    // The customer looks it up from the e-mail's link: the store e-mails a one-time link to
    // the order, which shows it on its way.
    await page.goto(`/pedido?folio=${folio}`);
    await page.getByLabel("Correo electrónico del pedido").fill(email);
    await page.getByRole("button", { name: "Enviarme el enlace" }).click();
    await expect(page.getByTestId("lookup-sent")).toBeVisible();
    const linkMail = await smtp.waitFor(
      (mail) => mail.subject === `Tu enlace para ver el pedido ${folio}`,
    );
    const link = /\/pedido\/abrir\?clave=[\w-]{43}/.exec(linkMail.text ?? "")?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByRole("button", { name: "Abrir mi pedido" }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Enviado");
    await expect(page.getByTestId("order-shipment")).toContainText("EST123456789MX");
    const onItsWay = await smtp.waitFor(
      (mail) => mail.subject === `Tu SIM va en camino: pedido ${folio}`,
    );
    expect(onItsWay.text).toContain("EST123456789MX");
    // Each e-mail once, whatever the retries and the polls.
    expect(smtp.messages.filter((mail) => mail.subject?.includes(folio))).toHaveLength(4);
    expect(ops(server, ["historial", folio])).toContain("ops:");
  } finally {
    await context.close();
    await stopServer(server);
    await smtp.close();
  }
});

test("a portability request moved to Programada and Completada shows it on its status page, with an e-mail each", async ({
  browser,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  const smtp = await startSmtpSink();
  const { base, server } = await storeWith(smtp.port, test.info().workerIndex);
  const { context, page } = await browse(browser, base, javaScriptEnabled);
  try {
    const phoneNumber = `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const email = uniqueEmail("porta-correo");
    await page.goto("/portabilidad");
    const form = page.getByRole("region", { name: "Solicita tu portabilidad" });
    await form.getByLabel("Número a portar (10 dígitos)").fill(phoneNumber);
    await form.getByLabel("NIP de portabilidad (4 dígitos)").fill("4821");
    await form.getByLabel("Nombre completo del titular").fill("Ana Gómez Martínez");
    await form.getByLabel("Correo electrónico").fill(email);
    await form.getByLabel("CURP").fill("GOMA850312MDFRRN09");
    await form.getByLabel("Compañía actual").selectOption({ label: "Telcel" });
    await form.getByRole("checkbox", { name: /Acepto la política de portabilidad/ }).check();
    await form.getByRole("button", { name: "Enviar solicitud" }).click();
    const folio = (await page.getByTestId("portability-folio").first().textContent())!;
    await smtp.waitFor(
      (mail) => mail.subject === `Recibimos tu solicitud de portabilidad ${folio}`,
    );

    const lookUp = async () => {
      await page.goto("/portabilidad");
      const lookup = page.getByRole("region", { name: "Consulta el estado de tu portabilidad" });
      await lookup.getByLabel("Folio").fill(folio);
      await lookup.getByLabel("Número a portar").fill(phoneNumber);
      await lookup.getByRole("button", { name: "Consultar" }).click();
      return page.getByTestId("portability-status").last();
    };
    const inAWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    ops(server, ["programar", folio, "--fecha", inAWeek]);
    await expect(await lookUp()).toContainText("Programada para el");
    await smtp.waitFor(
      (mail) =>
        mail.subject?.startsWith(`Tu portabilidad ${folio} está programada para el`) === true,
    );

    ops(server, ["completar", folio]);
    await expect(await lookUp()).toHaveText("Completada");
    await smtp.waitFor(
      (mail) =>
        mail.subject?.endsWith("ya está con Conecta Móvil") === true &&
        mail.text?.includes(folio) === true,
    );
  } finally {
    await context.close();
    await stopServer(server);
    await smtp.close();
  }
});

test("an SMTP server that is down delays the e-mails without losing them", async ({
  browser,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "a process check: run once");
  test.setTimeout(90_000);
  // Nothing listens on this port yet: every send is refused.
  const probe = await startSmtpSink();
  const smtpPort = probe.port;
  await probe.close();
  const { base, server } = await storeWith(smtpPort, test.info().workerIndex, {
    movableClock: true,
  });
  const { context, page } = await browse(browser, base, true);
  let smtp: SmtpSink | null = null;
  try {
    const email = uniqueEmail("smtp-caido");
    await cartWith(page, "Conecta 100");
    await page.goto("/checkout");
    await fillCheckout(page, email);
    await submitCheckout(page);
    await payWithCard(page, TEST_CARDS.approved);
    // The order is placed and paid whatever the mail server does.
    await expect(page.getByTestId("order-status")).toHaveText("Pagado");
    const folio = (await page.getByTestId("order-folio").textContent())!;
    await expect
      .poll(async () => (await (await fetch(`${base}/readyz`)).json()).mail.pending, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(server.output.join("")).toContain("mail not sent, will retry");

    // The server comes back: the retries deliver each e-mail once, the first of them 30 s after
    // the failed attempt (RETRY_DELAYS_MS), reached by moving the server's clock.
    smtp = await startSmtpSink(smtpPort);
    await server.moveClock(31);
    await smtp.waitFor((mail) => mail.subject === `Pago confirmado: tu pedido ${folio}`, 30_000);
    await smtp.waitFor((mail) => mail.subject === `Recibimos tu pedido ${folio}`, 30_000);
    await expect
      .poll(async () => (await (await fetch(`${base}/readyz`)).json()).mail.pending, {
        timeout: 20_000,
      })
      .toBe(0);
    expect(smtp.messages.filter((mail) => mail.subject?.includes(folio))).toHaveLength(2);
  } finally {
    await context.close();
    await stopServer(server);
    await smtp?.close();
  }
});
