import {
  expect,
  request as apiRequest,
  test,
  type APIRequestContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { openDatabase, type Db } from "../../app/db/db.server";
import { curpCheckDigit } from "../../app/registration/curp";
import { SANDBOX_TEST_CURPS } from "../../app/registration/id-validation-sandbox.server";
import { createRegistrationKeys, registerLine } from "../../app/registration/registrations.server";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { expectNoAxeViolations } from "./support/axe";
import { mailsTo, smsCode, smsTo, spaced, typeCode, uniqueLineNumber } from "./support/lines";

// Issue 27: the registration of a line already in use to its holder, online — the number, the
// code sent to it by SMS, the holder (checked here, then by the sandbox identity validation),
// and the folio.

const PATH = "/registro-de-linea";

/** A CURP whose check digit is right, from its first 17 characters. */
function curp(first17: string): string {
  return `${first17}${curpCheckDigit(first17)}`;
}

/** Ana Gómez Martínez, born 15 March 1990 in Mexico City: GOMA… matches her name. */
const ANA = { name: "Ana Gómez Martínez", curp: curp("GOMA900315MDFMRN0") };

/** Proves `number` at the page: the number, then the code the SMS carried. */
async function proveNumber(page: Page, request: APIRequestContext, number: string) {
  await page.goto(PATH);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Registra al titular de tu línea",
  );
  await page.getByLabel("Número de la línea (10 dígitos)").fill(spaced(number));
  await page.getByRole("button", { name: "Enviar código por SMS" }).click();
  await expect(page.getByTestId("code-sent")).toContainText(spaced(number));
  await typeCode(page, await smsCode(request, number), "Comprobar el número");
  await expect(
    page.getByRole("heading", { name: `Titular de la línea ${spaced(number)}` }),
  ).toBeVisible();
}

async function fillPersonaFisica(page: Page, holder: { name: string; curp: string }) {
  await page.getByLabel("Nombre completo (como aparece en la identificación)").fill(holder.name);
  await page.getByLabel("CURP", { exact: true }).fill(holder.curp);
  await page.getByText("Credencial para votar (INE)").click();
}

const submit = (page: Page) => page.getByRole("button", { name: "Registrar la línea" }).click();

/** The message shown next to the CURP field. */
const curpError = (page: Page) =>
  page
    .getByTestId("holder-form")
    .locator('div:has(> input[name="curp"])')
    .getByTestId("field-error");

test("registers a line already in use: number, SMS code, holder with CURP, and a folio (e-mailed, the CURP only masked)", async ({
  page,
  request,
}, testInfo) => {
  const number = uniqueLineNumber();
  const email = `registro-${testInfo.project.name}-${Date.now()}@example.mx`;
  await proveNumber(page, request, number);
  const [sms] = await smsTo(request, number);
  expect(sms?.template).toBe("line-code-registration");
  // What is kept and why, and the privacy notice.
  await expect(page.getByTestId("kept-data")).toContainText("CURP o RFC");
  await expect(page.getByRole("link", { name: /aviso de privacidad/ })).toHaveAttribute(
    "href",
    "/docs/aviso-de-privacidad.pdf",
  );
  await expectNoAxeViolations(page);

  await fillPersonaFisica(page, ANA);
  await page.getByLabel("Correo electrónico (opcional)").fill(email);
  await submit(page);

  await expect(page).toHaveURL(PATH);
  await expect(page.getByTestId("registration-done")).toContainText("Tu línea quedó registrada");
  const folio = await page.getByTestId("registration-folio").textContent();
  expect(folio).toMatch(/^VIN-\d{4}-\d{6}$/);
  await expect(page.getByTestId("registration-date")).toHaveText(/de \d{4}/);
  await expect(page.getByTestId("registration-number")).toHaveText(spaced(number));
  await expect(page.getByTestId("registration-holder")).toHaveText(ANA.name);
  await expect(page.getByTestId("registration-holder-key")).toHaveText(
    `${ANA.curp.slice(0, 4)}${"•".repeat(12)}${ANA.curp.slice(-2)}`,
  );
  expect(await page.content()).not.toContain(ANA.curp);
  await expectNoAxeViolations(page);

  await expect
    .poll(async () => (await mailsTo(request, email)).map((mail) => mail.subject))
    .toContain(`Tu línea quedó registrada: folio ${folio}`);
  const [mail] = await mailsTo(request, email);
  expect(mail!.text).toContain(folio!);
  expect(mail!.text).not.toContain(ANA.curp);

  // Another number starts again.
  await page.getByRole("button", { name: "Registrar otra línea" }).click();
  await expect(page.getByLabel("Número de la línea (10 dígitos)")).toBeVisible();
});

test("each fault of the CURP is told next to the field, in Spanish", async ({
  page,
  request,
}, testInfo) => {
  const number = uniqueLineNumber();
  await proveNumber(page, request, number);
  await fillPersonaFisica(page, ANA);
  const faults: Array<[string, string]> = [
    ["GOMA900315MDFMRN", "La CURP tiene 18 caracteres"],
    [curp("GOMA901315MDFMRN0"), "no forman una fecha posible"],
    [curp("GOMA900315MZZMRN0"), "clave del estado de nacimiento"],
    [
      `${ANA.curp.slice(0, 17)}${(Number(ANA.curp.slice(-1)) + 1) % 10}`,
      "El último dígito de la CURP",
    ],
  ];
  for (const [typed, message] of faults) {
    await page.getByLabel("CURP", { exact: true }).fill(typed);
    await submit(page);
    await expect(curpError(page)).toContainText(message);
    // Without JavaScript the server answers, and its summary links the field.
    if (testInfo.project.use.javaScriptEnabled === false) {
      await expect(page.getByTestId("error-summary-fields")).toHaveText("CURP");
    }
  }
  // Nothing was registered and no attempt counted: the right CURP registers.
  await page.getByLabel("CURP", { exact: true }).fill(ANA.curp);
  await submit(page);
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-/);
});

test("the holder's kind, chosen with links that need no JavaScript: a company's fields, and a foreigner registered with a passport", async ({
  page,
  request,
}) => {
  const number = uniqueLineNumber();
  await proveNumber(page, request, number);
  await page.getByRole("link", { name: "Empresa (persona moral)" }).click();
  await expect(page).toHaveURL(`${PATH}?tipo=moral`);
  await expect(page.getByLabel("RFC de la empresa")).toBeVisible();
  await expect(page.getByLabel("CURP del representante legal")).toBeVisible();

  await page.getByRole("link", { name: "Persona extranjera (con pasaporte)" }).click();
  await expect(page).toHaveURL(`${PATH}?tipo=extranjera`);
  await page.getByLabel("Nombre completo (como aparece en la identificación)").fill("John Smith");
  await page.getByLabel("Número de pasaporte").fill("x1234 5678");
  await page
    .getByLabel("Nacionalidad (como aparece en el pasaporte)")
    .selectOption({ label: "Estados Unidos" });
  await submit(page);
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/);
  await expect(page.getByTestId("registration-holder")).toHaveText("John Smith");
  await expect(page.getByTestId("registration-holder-key")).not.toContainText("X12345678");
});

test("three failed identity validations end the online path with where to go in person", async ({
  page,
  request,
}) => {
  const number = uniqueLineNumber();
  await proveNumber(page, request, number);
  const notFound = { name: ANA.name, curp: SANDBOX_TEST_CURPS["not-found"] };
  await fillPersonaFisica(page, notFound);
  await submit(page);
  await expect(curpError(page)).toContainText("No encontramos esta CURP");
  await expect(page.getByTestId("error-summary")).toContainText(
    "Intentos de validación en línea que le quedan a este número en 24 horas: 2.",
  );
  await page.getByLabel("CURP", { exact: true }).fill(notFound.curp);
  await submit(page);
  await expect(page.getByTestId("error-summary")).toContainText("24 horas: 1.");
  await page.getByLabel("CURP", { exact: true }).fill(notFound.curp);
  await submit(page);

  const inPerson = page.getByTestId("registration-in-person");
  await expect(inPerson).toContainText("No encontramos esta CURP");
  await expect(inPerson).toContainText("Termina el registro en una tienda");
  await expect(page.getByText(/Acude a una tienda Conecta Móvil/)).toBeVisible();
  await expect(page.getByTestId("holder-form")).toHaveCount(0);
  // Nor in the page's data: no form comes back, so the typed CURP does not either.
  expect(await page.content()).not.toContain(notFound.curp);

  // The page says so again, even with a valid CURP: the number has no online attempts left.
  await page.goto(PATH);
  await expect(page.getByTestId("registration-in-person")).toContainText(
    "Termina el registro en una tienda",
  );
  await expect(page.getByTestId("holder-form")).toHaveCount(0);
});

// ---------------------------------------------------------------------------------------------
// The 10-line limit: a server of this test's own, whose database the test opens to register ten
// lines to one CURP as stores and purchases would have, with the server's own secret.
// ---------------------------------------------------------------------------------------------

const SESSION_SECRET = "registration-session-secret-0123456789-abcdefghij";

async function running(port: number): Promise<ServerProcess> {
  const server = startServer({ NODE_ENV: "test", PORT: String(port), SESSION_SECRET });
  await waitForHealth(`http://localhost:${port}`, server);
  return server;
}

function projectCurp(testInfo: TestInfo): { name: string; curp: string } {
  // Luis Pérez Soto, born in Jalisco; the day of birth tells the two projects apart.
  const day = testInfo.project.name === "js-disabled" ? "12" : "11";
  return { name: "Luis Pérez Soto", curp: curp(`PESL8506${day}HJCRTS0`) };
}

test("an 11th line for one CURP is refused, naming how many it holds and not which", async ({
  browser,
}, testInfo) => {
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const server = await running(port);
  let db: Db | null = null;
  const context = await browser.newContext({
    baseURL,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  const page = await context.newPage();
  const api = await apiRequest.newContext({ baseURL });
  try {
    db = await openDatabase({ dataDir: server.dataDir, busyTimeoutMs: 5_000 });
    const keys = createRegistrationKeys([SESSION_SECRET]);
    const holder = projectCurp(testInfo);
    const registered: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      const number = uniqueLineNumber();
      const outcome = await registerLine(db, keys, {
        number,
        holder: {
          holder_kind: "fisica",
          full_name: holder.name,
          curp: holder.curp,
          identification_type: "ine",
        },
        validation: { outcome: "valid", reference: null, source: "sandbox" },
        channel: "tienda",
        accountSub: null,
      });
      expect(outcome.kind).toBe("registered");
      registered.push(number);
    }

    const eleventh = uniqueLineNumber();
    await proveNumber(page, api, eleventh);
    await fillPersonaFisica(page, holder);
    await submit(page);
    const summary = page.getByTestId("error-summary");
    await expect(summary).toContainText(
      "Esta CURP ya tiene 10 líneas registradas; el límite es de 10 líneas por persona.",
    );
    for (const number of registered) {
      await expect(summary).not.toContainText(spaced(number));
      expect(await page.content()).not.toContain(number);
    }
    await expect(page.getByTestId("registration-folio")).toHaveCount(0);
  } finally {
    await context.close();
    await api.dispose();
    await db?.destroy();
    await stopServer(server);
  }
});
