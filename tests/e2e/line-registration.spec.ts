import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
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
import {
  SANDBOX_TEST_CURPS,
  SANDBOX_TEST_DOCUMENT_NUMBERS,
} from "../../app/registration/id-validation-sandbox.server";
import { expectFitsEveryWidth } from "./support/layout";
import { createRegistrationKeys, registerLine } from "../../app/registration/registrations.server";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { expectNoAxeViolations } from "./support/axe";
import { attachPhotos, CIC, IMAGE_MARKER, PHOTO, SELFIE } from "./support/identification";
import {
  mailsTo,
  masked,
  smsCode,
  smsTo,
  spaced,
  typeCode,
  uniqueLineNumber,
} from "./support/lines";

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
  // The page's own words, not the add-a-line form's (issue 48).
  await expect(page.getByLabel("Código de 6 dígitos")).toHaveAccessibleDescription(
    "Lo recibiste por SMS en la línea que quieres registrar.",
  );
  await typeCode(page, await smsCode(request, number), "Comprobar el número");
  await expect(
    page.getByRole("heading", { name: `Titular de la línea ${spaced(number)}` }),
  ).toBeVisible();
}

async function fillPersonaFisica(
  page: Page,
  holder: { name: string; curp: string },
  documentNumber = CIC,
) {
  await page.getByLabel("Nombre completo (como aparece en la identificación)").fill(holder.name);
  await page.getByLabel("CURP", { exact: true }).fill(holder.curp);
  await page.getByText("Credencial para votar (INE)").click();
  await page.getByLabel("Número de la identificación").fill(documentNumber);
  await attachPhotos(page);
}

/** The message shown next to a field of the holder's form. */
const fieldError = (page: Page, name: string) =>
  page
    .getByTestId("holder-form")
    .locator(`div:has(> input[name="${name}"])`)
    .getByTestId("field-error");

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
    await attachPhotos(page);
    await submit(page);
    await expect(curpError(page)).toContainText(message);
    // Without JavaScript the server answers, and its summary links the field.
    if (testInfo.project.use.javaScriptEnabled === false) {
      await expect(page.getByTestId("error-summary-fields")).toHaveText("CURP");
    }
  }
  // Nothing was registered and no attempt counted: the right CURP registers.
  await page.getByLabel("CURP", { exact: true }).fill(ANA.curp);
  await attachPhotos(page);
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
  await attachPhotos(page);
  await submit(page);
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/);
  await expect(page.getByTestId("registration-holder")).toHaveText("John Smith");
  await expect(page.getByTestId("registration-holder-key")).not.toContainText("X12345678");
});

test("a registration without the identification's number and photos is refused, each told next to its field", async ({
  page,
  request,
}) => {
  const number = uniqueLineNumber();
  await proveNumber(page, request, number);
  await page.getByLabel("Nombre completo (como aparece en la identificación)").fill(ANA.name);
  await page.getByLabel("CURP", { exact: true }).fill(ANA.curp);
  await page.getByText("Credencial para votar (INE)").click();
  await submit(page);
  await expect(fieldError(page, "document_number")).toHaveText(
    "Escribe el número de la identificación: el CIC de tu credencial para votar o el número de tu pasaporte.",
  );
  await expect(fieldError(page, "id_photo")).toHaveText(
    "Sube una foto de la identificación o tómala con la cámara.",
  );
  await expect(fieldError(page, "selfie")).toHaveText("Sube una selfie tomada en este momento.");
  // The CIC's format, told before anything is sent anywhere.
  await page.getByLabel("Número de la identificación").fill("1234");
  await submit(page);
  await expect(fieldError(page, "document_number")).toContainText(
    "El CIC de la credencial para votar son 9 números",
  );
  await expect(page.getByTestId("registration-folio")).toHaveCount(0);
  // The inputs a phone needs to take the photos with its camera.
  await expect(page.locator('input[name="selfie"]')).toHaveAttribute("capture", "user");
  await expect(page.locator('input[name="id_photo"]')).toHaveAttribute("accept", "image/*");
  await expect(page.getByTestId("holder-form")).toHaveAttribute("enctype", "multipart/form-data");
  await expectFitsEveryWidth(page, "the holder's form with its photos refused");

  // Everything given: it registers.
  await page.getByLabel("Número de la identificación").fill(CIC);
  await attachPhotos(page);
  await submit(page);
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/);
});

test("a second line registered to a CURP is texted to the first, whose holder says 'no fui yo'", async ({
  page,
  request,
}, testInfo) => {
  // Marta Ruiz Vega; the day of birth tells the two projects apart.
  const day = testInfo.project.name === "js-disabled" ? "06" : "05";
  const marta = { name: "Marta Ruiz Vega", curp: curp(`RUVM7505${day}MDFZGR0`) };
  const first = uniqueLineNumber();
  await proveNumber(page, request, first);
  await fillPersonaFisica(page, marta);
  await submit(page);
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-/);
  await page.getByRole("button", { name: "Registrar otra línea" }).click();
  await expect(page.getByLabel("Número de la línea (10 dígitos)")).toBeVisible();

  const second = uniqueLineNumber();
  await proveNumber(page, request, second);
  await fillPersonaFisica(page, marta);
  await submit(page);
  await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-/);

  // The first line hears of it: a link with an opaque token, never the CURP or the new number.
  let notice = "";
  await expect
    .poll(async () => {
      const texts = await smsTo(request, first);
      notice = texts.find((sms) => sms.template === "registration-notice")?.text ?? "";
      return notice;
    })
    .toContain("/no-fui-yo/");
  expect(notice).not.toContain(marta.curp);
  expect(notice).not.toContain(second);
  const link = /\/no-fui-yo\/[0-9a-f]{32}/.exec(notice)![0];

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Se registró una línea con tus datos",
  );
  await expect(page.getByText(masked(second))).toBeVisible();
  expect(await page.content()).not.toContain(marta.curp);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "No fui yo" }).click();
  await expect(page.getByTestId("dispute-done")).toContainText("Recibimos tu aviso");
  await page.reload();
  await expect(page.getByTestId("dispute-done")).toBeVisible();

  // A token that is no notice's: not found.
  const unknown = await request.get("/no-fui-yo/0123456789abcdef0123456789abcdef");
  expect(unknown.status()).toBe(404);
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
  await attachPhotos(page);
  await submit(page);
  await expect(page.getByTestId("error-summary")).toContainText("24 horas: 1.");
  await page.getByLabel("CURP", { exact: true }).fill(notFound.curp);
  await attachPhotos(page);
  await submit(page);

  const inPerson = page.getByTestId("registration-in-person");
  await expect(inPerson).toContainText("No encontramos esta CURP");
  await expect(inPerson).toContainText("Termina el registro en una tienda");
  await expect(page.getByText(/Acude a un punto de atención Conecta Móvil/)).toBeVisible();
  await expect(page.getByTestId("holder-form")).toHaveCount(0);
  // Nor in the page's data: no form comes back, so the typed CURP does not either.
  expect(await page.content()).not.toContain(notFound.curp);
  // Where it sends the customer exists (issue 48): the points of service, and the online
  // alternative, an assisted validation.
  await expect(page.getByRole("link", { name: "Pide una validación asistida" })).toHaveAttribute(
    "href",
    "/registro-de-linea/validacion-asistida",
  );
  await page.getByRole("link", { name: "Busca un punto de atención cerca de ti" }).click();
  await expect(page).toHaveURL(/\/puntos-de-atencion\?servicio=registro-de-linea$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Puntos de atención");
  await expect(page.getByLabel("Servicio")).toHaveValue("registro-de-linea");

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

/** Every file under `dir`, at any depth. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

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

test("an identification that is not the holder's is refused; the holder's own registers, and its photos are kept nowhere on the server", async ({
  browser,
}, testInfo) => {
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const server = await running(port);
  const context = await browser.newContext({
    baseURL,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  const page = await context.newPage();
  const api = await apiRequest.newContext({ baseURL });
  try {
    const number = uniqueLineNumber();
    await proveNumber(page, api, number);
    await fillPersonaFisica(page, ANA, SANDBOX_TEST_DOCUMENT_NUMBERS["document-mismatch"].ine);
    await submit(page);
    await expect(fieldError(page, "document_number")).toContainText(
      "La identificación no corresponde al titular",
    );
    await expect(page.getByTestId("error-summary")).toContainText("24 horas: 2.");
    await expect(page.getByTestId("registration-folio")).toHaveCount(0);

    await page.getByLabel("Número de la identificación").fill(CIC);
    await attachPhotos(page);
    await submit(page);
    await expect(page.getByTestId("registration-folio")).toHaveText(/^VIN-\d{4}-\d{6}$/);

    await stopServer(server);
    // Nothing of the photos in any file the server wrote (database, its journal, outboxes), in
    // any encoding it could have used, nor in its log; nor the identification's number.
    const traces = [
      IMAGE_MARKER,
      Buffer.from(IMAGE_MARKER).toString("hex"),
      PHOTO.buffer.toString("base64").slice(0, 24),
      SELFIE.buffer.toString("base64").slice(0, 24),
      CIC,
    ];
    const files = filesUnder(server.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const content = readFileSync(file).toString("latin1");
      for (const trace of traces) expect(content, `${file}: ${trace}`).not.toContain(trace);
    }
    const log = server.output.join("");
    expect(log).toContain("line registered");
    for (const trace of traces) expect(log).not.toContain(trace);
  } finally {
    await context.close();
    await api.dispose();
    await stopServer(server);
  }
});

test("an 11th line for one CURP is refused, telling neither how many it holds nor which", async ({
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
      "Esta CURP no puede registrar más líneas en línea. Para registrar esta línea, acude a una tienda",
    );
    await expect(summary).not.toContainText(/\d+ líneas/);
    await expect(summary).not.toContainText("10");
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
