import { randomUUID } from "node:crypto";
import { expect, request as apiRequest, test } from "@playwright/test";
import { openDatabase, type Db } from "../../app/db/db.server";
import { linkLine } from "../../app/line/lines.server";
import { createBssSimulator } from "../../app/line/simulator.server";
import { testIccid } from "../support/iccids";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { tcpProxy } from "../support/tcp-proxy";
import { startTmfStandIn } from "../support/tmf-stand-in";
import { pageOn, opsOn } from "./support/own-server";
import { expectNoAxeViolations } from "./support/axe";
import { expectFlash, signOut } from "./support/auth";
import { createCustomer, signInTo } from "./support/customers";
import {
  askForCode,
  mailsTo,
  masked,
  smsCode,
  smsTo,
  spaced,
  typeCode,
  uniqueLineNumber,
} from "./support/lines";

// Issue 26, what the customer sees of the line: adding a line they already have with a code sent
// to it by SMS, the line's page (figures, data bar, usage chart), /saldo without an account.

test("a customer adds a line they already have with the code sent to it, and tops it up from its page", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, "lineas");
  const number = uniqueLineNumber();
  await signInTo(page, customer, "/my-account/lineas");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mis líneas");
  await expect(page.getByText("Aún no tienes líneas en tu cuenta.")).toBeVisible();

  await askForCode(page, spaced(number));
  await expect(page).toHaveURL("/my-account/lineas");
  await expect(page.getByTestId("code-sent")).toContainText(spaced(number));
  const [sms] = await smsTo(request, number);
  expect(sms?.template).toBe("line-code-add");
  await expect(page.getByLabel("Código de 6 dígitos")).toHaveAccessibleDescription(
    "Lo recibiste por SMS en la línea que quieres agregar.",
  );
  await expectNoAxeViolations(page);

  await typeCode(page, await smsCode(request, number), "Agregar la línea");
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);
  await expectFlash(page, `La línea ${spaced(number)} ya está en tu cuenta.`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Línea ${spaced(number)}`);
  await expect(page.getByTestId("line-status")).toHaveText("Activa");
  // A sandbox line with no package: the notice, with the button that tops it up.
  await expect(page.getByTestId("running-out")).toContainText("no tiene un paquete vigente");
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await expect(page.getByRole("link", { name: "Registrar esta línea" })).toHaveAttribute(
    "href",
    "/registro-de-linea",
  );
  await expectNoAxeViolations(page);

  await page.goto("/my-account");
  const myLines = page.getByTestId("account-my-lines");
  await expect(myLines.getByTestId("line-card")).toHaveAttribute("data-number", number);
  await expect(myLines.getByRole("link", { name: "Registrar una línea con CURP" })).toHaveAttribute(
    "href",
    "/registro-de-linea",
  );
  await page.goto(`/my-account/lineas/${number}`);
  await page.getByTestId("top-up-line").first().click();
  await expect(page).toHaveURL(`/my-account/recarga?numero=${number}`);
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue(number);
  await expect(page.getByLabel("Vuelve a escribir el número")).toHaveValue(number);
});

test("five wrong codes, then a new code is needed; another customer's line is a 404", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const customer = await createCustomer(request, "lineas-codigo");
  const number = uniqueLineNumber();
  await signInTo(page, customer, "/my-account/lineas");
  await askForCode(page, number);
  const code = await smsCode(request, number);
  const wrong = code === "000000" ? "111111" : "000000";
  for (const left of [4, 3, 2, 1]) {
    await typeCode(page, wrong, "Agregar la línea");
    await expect(page.getByTestId("field-error").filter({ hasText: "no es correcto" })).toHaveText(
      `El código no es correcto. Intentos restantes: ${left}.`,
    );
  }
  await typeCode(page, wrong, "Agregar la línea");
  await expect(page.getByTestId("field-error").filter({ hasText: "5 veces" })).toBeVisible();
  await typeCode(page, code, "Agregar la línea");
  await expect(page.getByTestId("field-error").filter({ hasText: "5 veces" })).toBeVisible();

  await page.getByRole("button", { name: "Enviar un código nuevo" }).click();
  await typeCode(page, await smsCode(request, number, 1), "Agregar la línea");
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);

  // Someone else signed in: the line's address is the site's 404, naming no one.
  const other = await createCustomer(request, "lineas-otro");
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  try {
    const stranger = await context.newPage();
    await signInTo(stranger, other, "/my-account/lineas");
    const response = await stranger.goto(`/my-account/lineas/${number}`);
    expect(response?.status()).toBe(404);
    await expect(stranger.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
    await expect(stranger.locator("main")).not.toContainText(customer.email);
  } finally {
    await context.close();
  }
});

test("/saldo from a browser with no cookies: the number, the code, the line's summary; the same answer for a number that is no line", async ({
  page,
  request,
  context,
}) => {
  expect(await context.cookies()).toEqual([]);
  const number = uniqueLineNumber();
  await page.goto("/");
  await page
    .getByRole("contentinfo")
    .getByRole("link", { name: "Consulta el saldo de tu línea" })
    .click();
  await expect(page).toHaveURL("/saldo");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Consulta tu saldo");
  await expectNoAxeViolations(page);

  await askForCode(page, number);
  await expect(page.getByTestId("code-sent")).toHaveText(
    `Si ${spaced(number)} es una línea de Conecta Móvil, le enviamos un código por SMS. Vence en 10 minutos.`,
  );
  // The page's own words, not the add-a-line form's (issue 48).
  await expect(page.getByLabel("Código de 6 dígitos")).toHaveAccessibleDescription(
    "Lo recibiste por SMS en la línea que quieres consultar.",
  );
  await typeCode(page, await smsCode(request, number), "Ver mi saldo");
  await expect(page).toHaveURL("/saldo");
  await expect(page.getByRole("heading", { name: `Línea ${spaced(number)}` })).toBeVisible();
  await expect(page.getByTestId("line-status")).toHaveText("Activa");
  await expect(page.getByTestId("line-balance")).toHaveText("$0");
  await expect(page.getByRole("link", { name: "Registrar esta línea" })).toHaveAttribute(
    "href",
    "/registro-de-linea",
  );
  await expectNoAxeViolations(page);

  // A number the BSS does not know: the same page, the same wording, and no SMS.
  await page.getByRole("button", { name: "Consultar otro número" }).click();
  const noLine = "9900004321";
  await askForCode(page, noLine);
  await expect(page.getByTestId("code-sent")).toHaveText(
    `Si ${spaced(noLine)} es una línea de Conecta Móvil, le enviamos un código por SMS. Vence en 10 minutos.`,
  );
  expect(await smsTo(request, noLine)).toEqual([]);
  await typeCode(page, "123456", "Ver mi saldo");
  await expect(page.getByTestId("field-error").filter({ hasText: "no es correcto" })).toBeVisible();
});

// ---------------------------------------------------------------------------------------------
// Usage recorded on the line with `npm run ops -- consumo`: a server of this test's own, whose
// database the operator's command opens (and the test too, to activate a line with a plan as a
// paid eSIM would).
// ---------------------------------------------------------------------------------------------

const SESSION_SECRET = "lines-session-secret-0123456789-abcdefghijklmnop";

async function running(port: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = startServer({ NODE_ENV: "test", PORT: String(port), SESSION_SECRET, ...env });
  await waitForHealth(`http://localhost:${port}`, server);
  return server;
}

const ops = (server: ServerProcess, args: string[]) => opsOn(server, SESSION_SECRET, args);

test("usage recorded with npm run ops moves the line's data bar and its chart; running low shows the notice and e-mails once", async ({
  browser,
}, testInfo) => {
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const server = await running(port);
  let db: Db | null = null;
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  const api = await apiRequest.newContext({ baseURL });
  try {
    db = await openDatabase({ dataDir: server.dataDir, busyTimeoutMs: 5_000 });
    const bss = createBssSimulator({ db });
    // A Conecta 150 line (5 GB) activated for this customer, as a paid eSIM would be.
    const { number } = await bss.activateLine({
      externalId: `lines-spec-${testInfo.project.name}`,
      iccid: testIccid(Date.now() % 1e9),
      offerId: "conecta-150",
    });
    const customer = await createCustomer(api, "consumo");
    await signInTo(page, customer, "/my-account");
    await page.goto("/my-account/lineas");
    await askForCode(page, number);
    await typeCode(page, await smsCode(api, number), "Agregar la línea");
    await expect(page).toHaveURL(`/my-account/lineas/${number}`);
    await expect(page.getByTestId("line-package")).toHaveText("Conecta 150");
    await expect(page.getByTestId("data-left")).toHaveText("Te quedan 5 GB");
    // The UI kit's progress bar (spec §9): the data left, out of 100, named for screen readers.
    const dataBar = page.getByRole("progressbar", { name: "Datos disponibles" });
    await expect(dataBar).toHaveAttribute("aria-valuenow", "100");
    await expect(dataBar).toHaveAttribute("aria-valuemax", "100");
    await expect(dataBar).toHaveAttribute("aria-valuetext", "Te quedan 5 GB");

    expect(ops(server, ["consumo", number, "--datos", "2GB"])).toContain("Consumo registrado");
    await page.reload();
    await expect(page.getByTestId("data-used")).toHaveText("Usaste 2 GB de 5 GB");
    await expect(dataBar).toHaveAttribute("aria-valuenow", "60");
    await expect(dataBar).toHaveAttribute("aria-valuetext", "Te quedan 3 GB");
    await expect(dataBar.locator("rect").last()).toHaveAttribute("width", "60");
    const today = page.getByTestId("usage-bar").last();
    await expect(today).toHaveAttribute("data-mb", "2048");
    await expect(page.getByTestId("usage-table")).toContainText("2 GB");
    await expect(page.getByTestId("running-out")).toHaveCount(0);

    ops(server, ["consumo", number, "--datos", "2600MB"]);
    await page.reload();
    await expect(page.getByTestId("running-out")).toContainText("le quedan pocos datos");
    await page.goto("/my-account/lineas");
    await expect(page.getByTestId("line-card").getByTestId("running-out")).toBeVisible();
    const runningOutMails = async () => {
      const html = await (await api.get(`/dev/outbox?to=${customer.email}`)).text();
      return (
        html.match(/outbox-mail-subject">A tu línea [^<]+ le quedan pocos datos</g)?.length ?? 0
      );
    };
    await expect.poll(runningOutMails).toBe(1);
  } finally {
    await context.close();
    await api.dispose();
    await db?.destroy();
    await stopServer(server);
  }
});

// The running-out sweep (decision 0094): every RUNNING_OUT_SWEEP_MINUTES the server reads the lines
// of the accounts whose address it recorded at sign-in, so a line runs out and is told by e-mail
// with nobody on its pages. The test's server sweeps every 3 s (0.05 minutes): it waits for one
// timer round, and for the round after it restarts the server (a start sweeps at once).
test("a line nobody looks at gets its running-out e-mail from the sweep, once; a line whose account never signed in here gets none", async ({
  browser,
}, testInfo) => {
  test.slow();
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const sweepOften = { RUNNING_OUT_SWEEP_MINUTES: "0.05" };
  let server = await running(port, sweepOften);
  let db: Db | null = null;
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  const api = await apiRequest.newContext({ baseURL });
  try {
    db = await openDatabase({ dataDir: server.dataDir, busyTimeoutMs: 5_000 });
    const bss = createBssSimulator({ db });
    const serial = Date.now() % 1e9;
    // Conecta 150 lines (5 GB), as paid eSIMs would be: the customer's, a second of theirs that
    // tells when a later round has read the lines again, and one in an account the store has no
    // address for (its customer has not signed in since addresses are recorded).
    const [number, laterNumber, strangersNumber] = await Promise.all(
      ["barrido", "barrido-despues", "barrido-ajena"].map(async (name, index) => {
        const line = await bss.activateLine({
          externalId: `lines-spec-${name}-${testInfo.project.name}`,
          iccid: testIccid(serial + index),
          offerId: "conecta-150",
        });
        return line.number;
      }),
    );
    await linkLine(db, {
      number: strangersNumber!,
      accountSub: randomUUID(),
      source: "esim",
      now: new Date(),
    });

    const customer = await createCustomer(api, "barrido");
    await signInTo(page, customer, "/my-account/lineas");
    // Signing in recorded the address the sweep writes to.
    expect(
      await db
        .selectFrom("account_emails")
        .select("email")
        .where("email", "=", customer.email)
        .execute(),
    ).toEqual([{ email: customer.email }]);
    for (const each of [number!, laterNumber!]) {
      await page.goto("/my-account/lineas");
      await askForCode(page, each);
      await typeCode(page, await smsCode(api, each), "Agregar la línea");
      await expect(page).toHaveURL(`/my-account/lineas/${each}`);
      await expect(page.getByTestId("data-left")).toHaveText("Te quedan 5 GB");
      await expect(page.getByTestId("running-out")).toHaveCount(0);
    }
    await signOut(page);
    await context.close();

    // 4,700 MB of 5 GB used: 420 MB left, under a tenth, and no page of the line is open.
    const runsOut = (line: string) =>
      expect(ops(server, ["consumo", line, "--datos", "4700MB"])).toContain("Consumo registrado");
    runsOut(number!);
    runsOut(strangersNumber!);
    const subject = (line: string) => `A tu línea ${masked(line)} le quedan pocos datos`;
    const runningOutMails = async (line: string) =>
      (await mailsTo(api, customer.email)).filter((mail) => mail.subject === subject(line));
    // A timer round comes within 3 s (the rounds before found nothing running out).
    await expect
      .poll(async () => (await runningOutMails(number!)).length, { timeout: 20_000 })
      .toBe(1);
    const [mail] = await runningOutMails(number!);
    expect(mail!.text).toContain(`A tu línea ${masked(number!)} le queda poco de los datos`);
    expect(mail!.text).toContain(`Consulta tu línea y recárgala desde tu cuenta:`);
    expect(mail!.text).toContain(`${baseURL}/my-account/lineas`);

    // Another round: the second line runs out only now, so its e-mail comes from a round after
    // the first e-mail's, one that read the first line again; that line is not told twice.
    runsOut(laterNumber!);
    await stopServer(server);
    server = await running(port, { ...sweepOften, DATA_DIR: server.dataDir });
    await expect
      .poll(async () => (await runningOutMails(laterNumber!)).length, { timeout: 20_000 })
      .toBe(1);
    expect(await runningOutMails(number!)).toHaveLength(1);
    const everyMail = await mailsTo(api);
    expect(everyMail.filter((each) => each.subject.includes(masked(strangersNumber!)))).toEqual([]);
  } finally {
    await context.close();
    await api.dispose();
    await db?.destroy();
    await stopServer(server);
  }
});

// ---------------------------------------------------------------------------------------------
// The BSS out of reach: a server of its own on the TMF adapter, the stand-in behind a proxy the
// test cuts (as tests/e2e/line-topup.spec.ts does).
// ---------------------------------------------------------------------------------------------

test("the BSS out of reach: the line's page and /saldo say they could not read the line, the rest works, no code is sent", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const standIn = await startTmfStandIn();
  const number = uniqueLineNumber();
  standIn.addLine({ number, offerId: "conecta-100" });
  const proxy = tcpProxy({ host: "127.0.0.1", port: Number(new URL(standIn.baseUrl).port) });
  await proxy.start();
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const bss = `http://127.0.0.1:${proxy.port}`;
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
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  const api = await apiRequest.newContext({ baseURL });
  try {
    await waitForHealth(baseURL, server);
    const customer = await createCustomer(api, "lineas-bss");
    await signInTo(page, customer, "/my-account/lineas");
    await askForCode(page, number);
    await typeCode(page, await smsCode(api, number), "Agregar la línea");
    await expect(page).toHaveURL(`/my-account/lineas/${number}`);
    await expect(page.getByTestId("line-package")).toHaveText("Conecta 100");

    await proxy.cut();
    const answer = await page.reload();
    expect(answer?.status()).toBe(503);
    await expect(page.getByTestId("line-unavailable")).toHaveText(
      "No pudimos consultar tu línea en este momento. Inténtalo de nuevo en unos minutos.",
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Línea ${spaced(number)}`);
    await expect(page.getByRole("heading", { name: "Últimas recargas" })).toBeVisible();
    await expect(page.getByTestId("line-figures")).toHaveCount(0);

    await page.goto("/my-account");
    await expect(
      page.getByTestId("account-my-lines").getByTestId("line-unavailable"),
    ).toBeVisible();

    await page.goto("/saldo");
    await askForCode(page, uniqueLineNumber());
    await expect(page.getByRole("alert").first()).toContainText(
      "No pudimos enviar el código en este momento",
    );
    expect(server.output.join("")).not.toContain(number);
  } finally {
    await stopServer(server);
    await proxy.cut().catch(() => undefined);
    await standIn.close();
    await context.close();
    await api.dispose();
  }
});
