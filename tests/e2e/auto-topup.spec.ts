import {
  expect,
  request as apiRequest,
  test,
  type APIRequestContext,
  type Page,
} from "@playwright/test";
import { openDatabase } from "../../app/db/db.server";
import { createBssSimulator } from "../../app/line/simulator.server";
import { testIccid } from "../support/iccids";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { pageOn, opsOn } from "./support/own-server";
import { expectNoAxeViolations } from "./support/axe";
import { expectFlash } from "./support/auth";
import { createCustomer, signInTo } from "./support/customers";
import { askForCode, mailsTo, masked, smsCode, typeCode, uniqueLineNumber } from "./support/lines";
import { SAVED_CARD, saveCardWhileToppingUp, savedCardRadio } from "./support/saved-cards";

// Issue 29, automatic top-up (decisions 0120, 0121): a line of the account is set to top up $150
// when it has less than 1 GB left, with a saved card; the operator drives it down with `npm run
// ops -- consumo` and the scheduler (every 2 s here) charges once, the top-up reaches the line, and
// the customer gets two e-mails. A card declined later stops after two tries, with its e-mail.
// A server of its own: its scheduler's interval, and the operator's commands on its database.

const SESSION_SECRET = "auto-topup-session-secret-0123456789-abcdefghijk";

async function running(port: number): Promise<ServerProcess> {
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET,
    AUTO_TOPUP_SWEEP_SECONDS: "2",
    AUTO_TOPUP_RETRY_MINUTES: "0",
  });
  await waitForHealth(`http://localhost:${port}`, server);
  return server;
}

const ops = (server: ServerProcess, args: string[]) => opsOn(server, SESSION_SECRET, args);

/**
 * A Conecta 150 line (5 GB) activated as a paid eSIM would be, added to the signed-in account
 * with its SMS code; its page is open.
 */
async function lineInAccount(
  server: ServerProcess,
  page: Page,
  api: APIRequestContext,
  name: string,
): Promise<string> {
  const db = await openDatabase({ dataDir: server.dataDir, busyTimeoutMs: 5_000 });
  try {
    const { number } = await createBssSimulator({ db }).activateLine({
      externalId: `auto-topup-${name}-${Date.now()}`,
      iccid: testIccid(Date.now() % 1e9),
      offerId: "conecta-150",
    });
    await page.goto("/my-account/lineas");
    await askForCode(page, number);
    await typeCode(page, await smsCode(api, number), "Agregar la línea");
    await expect(page).toHaveURL(`/my-account/lineas/${number}`);
    return number;
  } finally {
    await db.destroy();
  }
}

/** From the line's page: $150 when less than 1 GB is left, at most twice a month, with `card`. */
async function setAutomaticTopup(page: Page, card = SAVED_CARD) {
  await expect(page.getByTestId("auto-topup-summary")).toHaveAttribute("data-state", "off");
  await page.getByTestId("auto-topup-settings").click();
  await expect(page).toHaveURL(/\/recarga-automatica$/);
  await page.getByRole("radio", { name: /^\$150(?![\d.,])/ }).check();
  await page.getByRole("radio", { name: "Cuando me quede menos de 1 GB" }).check();
  await page.getByRole("radio", { name: "Hasta 2 al mes" }).check();
  await savedCardRadio(page, card).check();
  await page.getByRole("button", { name: "Activar la recarga automática" }).click();
  await expectFlash(page, "Listo: tu recarga automática está activa.");
  await expect(page.getByTestId("auto-topup-state")).toContainText("Activa");
  await expect(page.getByTestId("auto-topup-state")).toContainText(
    `Recargamos $150 cuando te queda menos de 1 GB, con tu ${card}.`,
  );
}

test("a line set to top up below 1 GB is charged once when it runs low: one top-up on the line, two e-mails", async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const server = await running(port);
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  const api = await apiRequest.newContext({ baseURL });
  try {
    const customer = await createCustomer(api, "automatica");
    await signInTo(page, customer, "/my-account/recarga");
    await saveCardWhileToppingUp(page, uniqueLineNumber());
    const number = await lineInAccount(server, page, api, "ok");
    await setAutomaticTopup(page);
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: /^Volver a la línea/ }).click();
    await expect(page.getByTestId("auto-topup-summary")).toHaveAttribute("data-state", "active");

    // 4,700 MB of 5 GB used: 420 MB left, under 1 GB.
    expect(ops(server, ["consumo", number, "--datos", "4700MB"])).toContain("Consumo registrado");

    const mails = () => mailsTo(api, customer.email);
    const notices = async () =>
      (await mails()).filter(
        (mail) => mail.subject === `Recargamos tu línea ${masked(number)}: le quedan pocos datos`,
      );
    const receipts = async () =>
      (await mails()).filter((mail) => mail.text.includes("Es tu recarga automática"));
    await expect.poll(async () => (await receipts()).length, { timeout: 30_000 }).toBe(1);
    expect(await notices()).toHaveLength(1);
    const [notice] = await notices();
    expect(notice!.text).toContain(`cargamos $150.00\u00a0MXN a tu ${SAVED_CARD}`);
    expect(notice!.text).not.toContain(number);
    expect((await receipts())[0]!.subject).toMatch(/^Comprobante de tu recarga REC-\d{4}-\d{6}$/);

    // The top-up reaches the line: 420 MB + 5 GB.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("data-left").textContent();
        },
        { timeout: 30_000 },
      )
      .toBe("Te quedan 5.4 GB");
    await expect(page.getByTestId("line-topup")).toHaveCount(1);

    // A few more rounds of the scheduler: still one charge, and the operator sees it masked.
    await page.waitForTimeout(5_000);
    await page.getByTestId("auto-topup-settings").click();
    await expect(page.getByTestId("auto-topup-charge")).toHaveCount(1);
    await expect(page.getByTestId("auto-topup-charge")).toContainText("Pagado");
    const listed = ops(server, ["recargas-automaticas"]);
    expect(listed).toContain(masked(number));
    expect(listed).toContain("Visa •••• 4242 (12/30)");
    expect(listed).toMatch(/Activa\s+1\s/);
    expect(listed).not.toContain(number);
    expect(await receipts()).toHaveLength(1);
    expect(await notices()).toHaveLength(1);
    // /readyz: this process schedules, one active, nothing overdue or waiting for the customer.
    const ready = (await (await api.get("/readyz")).json()) as {
      autoTopups: Record<string, unknown>;
    };
    expect(ready.autoTopups).toMatchObject({
      schedulerHere: true,
      active: 1,
      stopped: 0,
      awaitingCustomer: 0,
      overdue: 0,
      lastRoundError: null,
    });
    expect(ready.autoTopups.lastCheckedAt).toEqual(expect.any(String));
  } finally {
    await context.close();
    await api.dispose();
    await stopServer(server);
  }
});

test("a saved card declined when charged automatically is tried twice, then the automatic top-up stops with an e-mail", async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const server = await running(port);
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  const api = await apiRequest.newContext({ baseURL });
  try {
    const customer = await createCustomer(api, "automatica-rechazada");
    await signInTo(page, customer, "/my-account/recarga");
    // Approved at the page; the sandbox's bank declines every later charge of it.
    await saveCardWhileToppingUp(page, uniqueLineNumber(), "4000 0000 0000 0341");
    const number = await lineInAccount(server, page, api, "rechazada");
    await setAutomaticTopup(page, "Visa terminada en 0341");

    ops(server, ["consumo", number, "--datos", "4700MB"]);

    const subjects = async () => (await mailsTo(api, customer.email)).map((mail) => mail.subject);
    const stopped = `Desactivamos la recarga automática de tu línea ${masked(number)}`;
    await expect
      .poll(async () => (await subjects()).includes(stopped), { timeout: 30_000 })
      .toBe(true);
    const all = await subjects();
    expect(all.filter((subject) => subject === stopped)).toHaveLength(1);
    expect(
      all.filter(
        (subject) =>
          subject === `No pudimos cobrar la recarga automática de tu línea ${masked(number)}`,
      ),
    ).toHaveLength(1);

    await page.reload();
    await expect(page.getByTestId("auto-topup-state")).toContainText("Desactivada por nosotros");
    await expect(page.getByTestId("auto-topup-state")).toContainText(
      "Tu banco rechazó dos cargos seguidos.",
    );
    await expect(page.getByTestId("auto-topup-charge")).toHaveCount(1);
    await expect(page.getByTestId("auto-topup-charge")).toContainText("Rechazado dos veces");
    // Stopped: no third try, whatever the scheduler's rounds.
    await page.waitForTimeout(5_000);
    expect(
      (await subjects()).filter((subject) => subject.includes("recarga automática")),
    ).toHaveLength(2);
    const listed = ops(server, ["recargas-automaticas", "--estado", "detenida"]);
    expect(listed).toContain("Detenida: 2 cobros rechazados");
    expect(listed).toContain(masked(number));
    await page.goto(`/my-account/lineas/${number}`);
    await expect(page.getByTestId("auto-topup-summary")).toHaveAttribute("data-state", "stopped");
    await expect(page.getByTestId("line-topup")).toHaveCount(0);
  } finally {
    await context.close();
    await api.dispose();
    await stopServer(server);
  }
});
