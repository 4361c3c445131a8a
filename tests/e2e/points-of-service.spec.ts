import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";
import { expectNoAxeViolations } from "./support/axe";
import { uniqueLineNumber } from "./support/lines";
import { opsOn, pageOn } from "./support/own-server";

// Issue 48, decision 0140: where a customer whose online identity validation failed is sent
// must exist — the operator's points of service, found by postal code or state without
// JavaScript — and the online alternative, a request for an assisted validation that the
// operator lists with `npm run ops -- validaciones-asistidas`.

const POINTS = "/puntos-de-atencion";
const ASSISTED = "/registro-de-linea/validacion-asistida";

const search = (page: Page) => page.getByTestId("points-search");
const found = (page: Page) => page.getByTestId("point-of-service");

async function searchPoints(
  page: Page,
  fields: { cp?: string; estado?: string; servicio?: string },
) {
  const form = search(page);
  await form.getByLabel("Código postal").fill(fields.cp ?? "");
  await form.getByLabel("O elige un estado").selectOption(fields.estado ?? "");
  await form.getByLabel("Servicio").selectOption(fields.servicio ?? "");
  await form.getByRole("button", { name: "Buscar" }).click();
}

test("the points of service are found by postal code and by state, with a plain form", async ({
  page,
}) => {
  const answer = await page.goto(POINTS);
  expect(answer?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Puntos de atención");
  await expect(page).toHaveTitle("Conecta Móvil | Puntos de atención");
  // The store ships a sample; the page says so until the operator's file replaces it.
  await expect(page.getByTestId("points-sample")).toContainText("Este directorio es de ejemplo");
  await expect(found(page)).toHaveCount(0);

  // By postal code: the points of its zone (the same first digits).
  await searchPoints(page, { cp: "06700" });
  await expect(page).toHaveURL(/\/puntos-de-atencion\?cp=06700/);
  await expect(page.getByTestId("points-summary")).toHaveText(
    "1 punto de atención en la zona del código postal 06700.",
  );
  await expect(found(page)).toHaveCount(1);
  await expect(found(page).first()).toContainText("Conecta Móvil Centro (ejemplo)");
  await expect(found(page).first()).toContainText("C.P. 06000, Ciudad de México");
  await expect(found(page).first()).toContainText("Lunes a sábado de 10:00 a 19:00");
  await expect(found(page).first()).toContainText("Registro de línea, Reposición de SIM");
  await expectNoAxeViolations(page);

  // A postal code of a zone without a point: the closest postal codes, said so.
  await searchPoints(page, { cp: "47000" });
  await expect(page.getByTestId("points-summary")).toContainText(
    "No hay puntos de atención en la zona del código postal 47000",
  );
  await expect(found(page).first()).toContainText("Zapopan");

  // By state, then only those that replace a SIM.
  await searchPoints(page, { estado: "JAL" });
  await expect(page.getByTestId("points-summary")).toHaveText("2 puntos de atención en Jalisco.");
  await expect(found(page)).toHaveCount(2);
  await searchPoints(page, { estado: "JAL", servicio: "reposicion-de-sim" });
  await expect(page).toHaveURL(/estado=JAL&servicio=reposicion-de-sim/);
  await expect(found(page)).toHaveCount(1);
  await expect(found(page)).toContainText("Conecta Móvil Guadalajara Centro (ejemplo)");
  await searchPoints(page, { estado: "OAX" });
  await expect(page.getByTestId("points-summary")).toContainText(
    "No encontramos puntos de atención",
  );

  // A bad postal code: the Spanish message next to the field, and a 400 from the server.
  await searchPoints(page, { cp: "123" });
  const postalCode = search(page).getByLabel("Código postal");
  await expect(postalCode).toHaveAttribute("aria-invalid", "true");
  await expect(search(page).getByTestId("field-error").first()).toHaveText(
    "Escribe un código postal de 5 dígitos.",
  );
  await searchPoints(page, {});
  await expect(search(page).getByTestId("field-error").first()).toHaveText(
    "Escribe tu código postal o elige un estado.",
  );
  const refused = await page.request.get(`${POINTS}?cp=123`);
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Escribe un código postal de 5 dígitos.");
  expect((await page.request.get(`${POINTS}?estado=Jalisco`)).status()).toBe(400);

  // The registration's link chooses the service and searches nothing yet.
  await page.goto(`${POINTS}?servicio=registro-de-linea`);
  await expect(search(page).getByLabel("Servicio")).toHaveValue("registro-de-linea");
  await expect(page.getByTestId("points-summary")).toHaveCount(0);

  // The footer and the help centre lead here.
  await page.goto("/");
  await page.getByTestId("footer").getByRole("link", { name: "Puntos de atención" }).click();
  await expect(page).toHaveURL(/\/puntos-de-atencion$/);
  await page.goto("/help-center?q=sucursal");
  await page.getByText("¿Dónde registro mi línea en persona o repongo mi SIM?").first().click();
  await expect(page.getByRole("link", { name: "puntos de atención" }).first()).toHaveAttribute(
    "href",
    POINTS,
  );
});

const assistedForm = (page: Page) => page.getByTestId("assisted-validation-form");

async function fillAssisted(
  page: Page,
  values: { contact: string; number: string; window: string },
) {
  const form = assistedForm(page);
  await form.getByLabel("Teléfono o correo para contactarte").fill(values.contact);
  await form.getByLabel("Número de la línea que quieres registrar").fill(values.number);
  await form.getByLabel("¿Cuándo te contactamos?").selectOption({ label: values.window });
}

test("an assisted validation is requested with a contact and a time, and gets a folio", async ({
  page,
}) => {
  await page.goto(ASSISTED);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pide una validación asistida");
  await expect(page).toHaveTitle("Conecta Móvil | Validación asistida");

  // Bad input: each Spanish message next to its field.
  const number = uniqueLineNumber();
  await fillAssisted(page, { contact: "mi vecina", number: "55 1234", window: "Elige un horario" });
  await assistedForm(page).getByRole("button", { name: "Pedir validación asistida" }).click();
  const errors = assistedForm(page).getByTestId("field-error");
  await expect(errors.nth(0)).toHaveText("Escribe un teléfono de 10 dígitos o un correo válido.");
  await expect(errors.nth(1)).toHaveText("El número de la línea debe tener 10 dígitos.");
  await expect(errors.nth(2)).toHaveText("Elige cuándo te contactamos.");
  await expect(page.getByTestId("assisted-validation-done")).toHaveCount(0);
  // The server's answer to that form: a 400 with the messages, in Spanish.
  const key = await assistedForm(page).locator('input[name="idempotency_key"]').inputValue();
  const refused = await page.request.post(ASSISTED, {
    form: { contacto: "mi vecina", numero: "55 1234", franja: "", idempotency_key: key },
    headers: { Origin: BASE_URL },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(400);
  const html = await refused.text();
  expect(html).toContain("Escribe un teléfono de 10 dígitos o un correo válido.");
  expect(html).toContain("Elige cuándo te contactamos.");

  await fillAssisted(page, {
    contact: "ana.gomez@ejemplo.mx",
    number: number,
    window: "Por la tarde (13:00 a 17:00)",
  });
  await assistedForm(page).getByRole("button", { name: "Pedir validación asistida" }).click();
  const done = page.getByTestId("assisted-validation-done");
  await expect(done).toContainText("Recibimos tu solicitud");
  await expect(page.getByTestId("assisted-validation-folio")).toHaveText(/^VAL-\d{4}-\d{6}$/);
  await expect(page.getByTestId("assisted-validation-number")).toHaveText(
    `${number.slice(0, 2)} •••• ${number.slice(6)}`,
  );
  await expect(page.getByTestId("assisted-validation-window")).toHaveText(
    "Por la tarde (13:00 a 17:00)",
  );
  await expect(page.getByText("Qué sigue")).toBeVisible();
  await expectNoAxeViolations(page);
  await expect(page.getByRole("link", { name: "Busca un punto de atención" })).toHaveAttribute(
    "href",
    POINTS,
  );
});

// ---------------------------------------------------------------------------------------------
// The operator's side, on a server of this test's own: its file of points, a bad file, and the
// requests listed by `npm run ops -- validaciones-asistidas`.
// ---------------------------------------------------------------------------------------------

const SESSION_SECRET = "points-of-service-secret-0123456789-abcdefghijklm";

test("the operator's file replaces the sample, a bad one stops the start, and ops lists the requests", async ({
  browser,
}, testInfo) => {
  test.skip(testInfo.project.use.javaScriptEnabled === false, "the operator's side runs once");
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), "points-of-service-"));
  const file = path.join(dir, "puntos.json");
  const point = {
    id: "oax-centro",
    nombre: "Conecta Móvil Oaxaca Centro",
    direccion: "Calle de Prueba 12, col. Centro, Oaxaca de Juárez",
    estado: "OAX",
    codigoPostal: "68000",
    horario: "Lunes a viernes de 9:00 a 17:00",
    servicios: ["registro-de-linea"],
  };

  // A bad file: the server does not start, and says why in one line.
  writeFileSync(file, JSON.stringify({ puntos: [{ ...point, estado: "Oaxaca" }] }));
  const refused = startServer({
    NODE_ENV: "test",
    PORT: String(freePort(testInfo.workerIndex)),
    SESSION_SECRET,
    POINTS_OF_SERVICE_FILE: file,
  });
  expect(await refused.exited).toBe(1);
  expect(refused.output.join("")).toContain(
    `Invalid configuration: POINTS_OF_SERVICE_FILE: Puntos de atención en ${file}: punto 1 (oax-centro), estado:`,
  );

  writeFileSync(file, JSON.stringify({ puntos: [point] }));
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  let server: ServerProcess | null = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET,
    POINTS_OF_SERVICE_FILE: file,
  });
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  try {
    await waitForHealth(baseURL, server);
    await page.goto(`${POINTS}?estado=OAX`);
    await expect(found(page)).toHaveCount(1);
    await expect(found(page)).toContainText("Conecta Móvil Oaxaca Centro");
    await expect(page.getByTestId("points-sample")).toHaveCount(0);

    const number = uniqueLineNumber();
    await page.goto(ASSISTED);
    await fillAssisted(page, {
      contact: "(55) 3333-4444",
      number,
      window: "Por la mañana (9:00 a 13:00)",
    });
    await assistedForm(page).getByRole("button", { name: "Pedir validación asistida" }).click();
    const folio = (await page.getByTestId("assisted-validation-folio").textContent())!;
    expect(folio).toMatch(/^VAL-\d{4}-000001$/);

    const listed = opsOn(server, SESSION_SECRET, ["validaciones-asistidas"]);
    expect(listed).toContain(folio);
    expect(listed).toContain(number);
    expect(listed).toContain("Teléfono: 5533334444");
    expect(listed).toContain("Mañana (9:00 a 13:00)");
    expect(listed).toContain("1 solicitud de validación asistida.");
    const csv = opsOn(server, SESSION_SECRET, ["validaciones-asistidas", "--csv", "-"]);
    expect(csv).toContain(`${folio},`);
    expect(csv).toContain(",Teléfono,5533334444,");

    // The contact never reaches the log.
    await stopServer(server);
    const log = server.output.join("");
    server = null;
    expect(log).toContain("assisted validation requested");
    expect(log).not.toContain("5533334444");
    expect(log).not.toContain("3333-4444");
  } finally {
    await context.close();
    if (server) await stopServer(server);
  }
});
