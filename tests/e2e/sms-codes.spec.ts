import { expect, test, type Browser, type BrowserContext, type TestInfo } from "@playwright/test";
import { createCustomer, signInTo } from "./support/customers";
import { serverWithMovableClock } from "./support/own-server";
import { askForCode, smsCode, smsTo, spaced, typeCode, uniqueLineNumber } from "./support/lines";

// The SMS codes that prove a line (decision 0135): a stranger asking for codes for a number keeps
// its owner waiting only the short back-off between codes, never an hour; a signed-in account
// proves its own lines without a code; the store's hourly SMS budget shows on /metrics.

const RATE_LIMITED = /Por seguridad limitamos los códigos/;

/** A browser of its own on `baseURL`, seen by the server as coming from `address`. */
function browserFrom(browser: Browser, testInfo: TestInfo, baseURL: string, address: string) {
  return browser.newContext({
    baseURL,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
    extraHTTPHeaders: { "X-Forwarded-For": address },
  });
}

/** The form key of the page /saldo shows this browser now. */
async function saldoFormKey(context: BrowserContext): Promise<string> {
  const html = await (await context.request.get("/saldo")).text();
  const key = /name="idempotency_key"[^>]*value="([^"]+)"/.exec(html)?.[1];
  if (!key) throw new Error("no form key on /saldo");
  return key;
}

function sampleOf(text: string, series: string): number | null {
  const line = text.split("\n").find((each) => each.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

test("a stranger flooding /saldo with one number keeps its owner waiting a minute, not an hour; the SMS budget on /metrics", async ({
  browser,
}, testInfo) => {
  // Behind a proxy, so that each browser comes from an address of its own.
  const own = await serverWithMovableClock(browser, testInfo, {
    TRUST_PROXY: "1",
    LINE_CODE_SMS_PER_HOUR: "500",
  });
  const contexts: BrowserContext[] = [];
  try {
    const number = uniqueLineNumber();
    // Six requests from six addresses within the minute: one SMS, five Spanish 429s.
    const statuses: number[] = [];
    for (let index = 1; index <= 6; index += 1) {
      const stranger = await browserFrom(browser, testInfo, own.baseURL, `203.0.113.${index}`);
      contexts.push(stranger);
      const answer = await stranger.request.post("/saldo", {
        form: {
          intent: "enviar-codigo",
          phone_number: number,
          idempotency_key: await saldoFormKey(stranger),
        },
        maxRedirects: 0,
      });
      statuses.push(answer.status());
    }
    expect(statuses).toEqual([303, 429, 429, 429, 429, 429]);
    expect(await smsTo(own.request, number)).toHaveLength(1);

    const owner = await browserFrom(browser, testInfo, own.baseURL, "198.51.100.20");
    contexts.push(owner);
    const page = await owner.newPage();
    await page.goto("/saldo");
    await askForCode(page, spaced(number));
    await expect(page.getByText(RATE_LIMITED)).toBeVisible();

    // A minute later the owner's own request goes through, and the code shows the balance.
    await own.server.moveClock(61);
    await page.goto("/saldo");
    await askForCode(page, spaced(number));
    await expect(page.getByTestId("code-sent")).toContainText(spaced(number));
    await typeCode(page, await smsCode(own.request, number, 1), "Ver mi saldo");
    await expect(page.getByRole("heading", { name: `Línea ${spaced(number)}` })).toBeVisible();
    await expect(page.getByTestId("line-status")).toHaveText("Activa");

    // Two codes of the hour's 500 are spent, whoever asked.
    const metrics = await (await own.request.get("/metrics")).text();
    expect(sampleOf(metrics, "storefront_line_codes_hour_sent")).toBe(2);
    expect(sampleOf(metrics, "storefront_line_codes_hour_budget")).toBe(500);
  } finally {
    for (const context of contexts) await context.close();
    await own.close();
  }
});

test("a signed-in customer registers and looks up their own line with no new SMS code", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request, "registro-propia");
  const number = uniqueLineNumber();
  await signInTo(page, customer, "/my-account/lineas");
  await askForCode(page, spaced(number));
  await typeCode(page, await smsCode(request, number), "Agregar la línea");
  await expect(page).toHaveURL(`/my-account/lineas/${number}`);

  await page.goto("/registro-de-linea");
  await page.getByLabel("Número de la línea (10 dígitos)").fill(spaced(number));
  await page.getByRole("button", { name: "Enviar código por SMS" }).click();
  await expect(
    page.getByRole("heading", { name: `Titular de la línea ${spaced(number)}` }),
  ).toBeVisible();

  await page.goto("/saldo");
  await askForCode(page, spaced(number));
  await expect(page.getByRole("heading", { name: `Línea ${spaced(number)}` })).toBeVisible();

  // The only SMS the line got is the one that put it in the account.
  expect((await smsTo(request, number)).map((sms) => sms.template)).toEqual(["line-code-add"]);
});
