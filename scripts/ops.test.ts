// `npm run ops` as the operator runs it: the real script in a child process, on a DATA_DIR the
// app's own code filled, while this process keeps the database open the way the server does.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "~/checkout/orders.server";
import { DATABASE_FILE_NAME, openDatabase, type Db } from "~/db/db.server";
import { hasControlCharacters } from "~/lib/control-characters";
import { addDaysToDate, todayInMexico } from "~/lib/mexico-city-days";
import {
  makeOrder,
  makePortabilityRequest,
  makeTopup,
  queuedMail,
  seedCatalogue,
  statusChanges,
} from "../tests/support/store-fixtures";
import type { PortabilityRequest } from "~/portability/requests.server";
import { portInActivationRef } from "~/line/activations.server";
import {
  activationJobId,
  lineJobLogRef,
  queueLineJob,
  queueRegistrationAtBss,
  topupJobId,
} from "~/line/line-jobs.server";
import { linkLine } from "~/line/lines.server";
import { createBssSimulator, type BssSimulator } from "~/line/simulator.server";
import { testIccid } from "../tests/support/iccids";
import { curpCheckDigit } from "~/registration/curp";
import { awaitRegistration } from "~/registration/activation-registrations.server";
import { disputeNotice } from "~/registration/registration-notices.server";
import { checkoutHolderSchema, holderSchema } from "~/registration/holder";
import {
  createRegistrationKeys,
  currentLinesOfHolder,
  registerLine,
} from "~/registration/registrations.server";
import type { Topup } from "~/topup/topups.server";
import { saveAutoTopup } from "~/auto-topup/auto-topups.server";
import { recordSavedCard } from "~/payments/saved-cards.server";
import { buildCfdi } from "~/invoicing/cfdi";
import { claimInvoice, recordIssued } from "~/invoicing/invoices.server";
import { topupPurchase } from "~/invoicing/purchases.server";
import { createSandboxPac } from "~/invoicing/sandbox-pac.server";
import { SAMPLE } from "../tests/support/cfdi-sample";
import { recordAssistedValidation } from "~/registration/assisted-validations.server";
import { buildPrograms } from "./programs-build.mjs";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const ACTOR = `ops:${os.userInfo().username}`;

let dataDir: string;
/** The script's sources bundled as `npm run build` bundles them, inside the project. */
let opsBuild: string;
let db: Db;
let physical: Order;
let esim: Order;
let unpaid: Order;
let topup: Topup;
let toSchedule: PortabilityRequest;
let toReject: PortabilityRequest;
let simulator: BssSimulator;
/** A simulated line of the esim order, in Ana's account. */
let line: string;
/** A simulated line in no account, suspended. */
let guestLine: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The script from the project folder, as `npm run ops -- …` runs its build (dist/ops.js, which
 * tests/e2e/mail.spec.ts and production-install.spec.ts run after `npm run build`): here its
 * sources, bundled once for this file (through tsx, each of the 84 runs took about a second
 * more).
 */
function ops(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(opsBuild, "ops.js"), ...args], {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        // npm's note of the folder the operator typed the command in: where a CSV is written.
        INIT_CWD: dataDir,
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A refusal: exit code 1, one Spanish line on stderr, nothing on stdout. */
function expectRefusal(run: Run, text: string | RegExp) {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(text);
}

beforeAll(async () => {
  // Inside the project, so that the bundle finds the packages in node_modules.
  opsBuild = mkdtempSync(path.join(projectRoot, "node_modules", ".cache-ops-test-"));
  await buildPrograms({ ops: path.join(projectRoot, "scripts/ops.mjs") }, opsBuild, {
    sourcemap: false,
  });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-ops-"));
  db = await openDatabase({ dataDir });
  await seedCatalogue(db);
  physical = await makeOrder(db);
  esim = await makeOrder(db, { simType: "esim", fullName: '=HYPERLINK("http://x")' });
  unpaid = await makeOrder(db, { paid: false });
  topup = await makeTopup(db);
  toSchedule = await makePortabilityRequest(db);
  toReject = await makePortabilityRequest(db);
  simulator = createBssSimulator({ db });
  ({ number: line } = await simulator.activateLine({
    externalId: "ops-test-1",
    iccid: testIccid(900),
    offerId: "conecta-150",
  }));
  await linkLine(db, {
    number: line,
    accountSub: "sub-ana",
    source: "esim",
    sourceRef: `${esim.ref}:0`,
    now: new Date(),
  });
  ({ number: guestLine } = await simulator.activateLine({
    externalId: "ops-test-2",
    iccid: testIccid(901),
    offerId: "conecta-150",
  }));
  await simulator.setLineStatus(guestLine, "suspended");
  await linkLine(db, {
    number: guestLine,
    accountSub: "sub-beatriz",
    source: "added",
    now: new Date(Date.now() - 60_000),
  });
});

afterAll(async () => {
  await db?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (opsBuild) rmSync(opsBuild, { recursive: true, force: true });
});

describe("npm run ops", { timeout: 60_000 }, () => {
  it("explains itself in Spanish", async () => {
    const run = await ops(["ayuda"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Uso: npm run ops -- <comando>");
    for (const command of ["pedidos", "recargas", "portabilidades", "enviar", "programar"]) {
      expect(run.stdout).toContain(command);
    }
    expect((await ops([])).stdout).toBe(run.stdout);
  });

  it("lists orders as an aligned table, newest first, filtered by status and SIM", async () => {
    const today = todayInMexico();
    const all = await ops(["pedidos", "--desde", today, "--hasta", today]);
    expect(all.code).toBe(0);
    const lines = all.stdout.split("\n");
    expect(lines[0]).toMatch(/^Folio\s+Fecha\s+Estado\s+Total/);
    expect(lines.slice(2, 5).map((line) => line.split(" ")[0])).toEqual([
      unpaid.folio,
      esim.folio,
      physical.folio,
    ]);
    expect(all.stdout).toContain("3 pedidos.");
    const toShip = await ops(["pedidos", "--estado", "pagado", "--sim", "fisica"]);
    expect(toShip.stdout).toContain(physical.folio);
    expect(toShip.stdout).not.toContain(esim.folio);
    expect(toShip.stdout).toContain("1 pedido.");
    const none = await ops(["pedidos", "--hasta", addDaysToDate(today, -1)]);
    expect(none).toEqual({ code: 0, stdout: "No hay pedidos con esos filtros.\n", stderr: "" });
  });

  it("exports CSV for Excel to a file where the operator is, or to stdout", async () => {
    const run = await ops(["pedidos", "--csv", "pedidos.csv"]);
    const file = path.join(dataDir, "pedidos.csv");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`CSV escrito en ${file} (3 pedidos).\n`);
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString("utf8").slice(1);
    const records = text.split("\r\n");
    expect(records[0]).toMatch(/^Folio,Fecha,Estado,Total,SIM,Cliente,Teléfono,Correo,Guía,/);
    expect(records).toHaveLength(5); // heading, three orders, and the last CRLF
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(text).toContain('"Av. Insurgentes Sur 1234 int. 5, Del Valle, C.P. 03100');

    const stdout = await ops(["recargas", "--estado", "pagada", "--csv", "-"]);
    expect(stdout.code).toBe(0);
    expect(stdout.stdout.startsWith("\uFEFFFolio,Fecha,Estado,Monto,Número,Correo")).toBe(true);
    expect(stdout.stdout).toContain(`${topup.folio},`);
  });

  it("lists top-ups and portability requests", async () => {
    const topups = await ops(["recargas"]);
    expect(topups.stdout).toContain(topup.folio);
    expect(topups.stdout).toContain("$100.00");
    const requests = await ops(["portabilidades", "--estado", "recibida"]);
    expect(requests.stdout).toContain(toSchedule.folio);
    expect(requests.stdout).toContain(toReject.folio);
    expect(requests.stdout).toContain("2 solicitudes de portabilidad.");
  });

  it("ships a paid physical-SIM order once, audited, with the customer's e-mail queued", async () => {
    const run = await ops([
      "enviar",
      physical.folio,
      "--guia",
      "1234567890",
      "--paqueteria",
      "Estafeta",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(
      `Pedido ${physical.folio} marcado como enviado (Estafeta, guía 1234567890).`,
    );
    expect(run.stdout).toContain(`por ${ACTOR}`);
    expect(run.stdout).toContain("Correo al cliente (ana@example.com) en cola");
    const row = await db
      .selectFrom("orders")
      .select(["shipped_at", "carrier", "tracking_number"])
      .where("id", "=", physical.ref)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ carrier: "Estafeta", tracking_number: "1234567890" });
    expect(row.shipped_at).not.toBeNull();
    expect(await statusChanges(db)).toMatchObject([
      { subject: "order", subject_id: physical.ref, to_status: "shipped", actor: ACTOR },
    ]);
    expect(await queuedMail(db)).toMatchObject([
      { dedupeKey: `order-shipped:${physical.ref}`, template: "order_shipped" },
    ]);

    expectRefusal(
      await ops(["enviar", physical.folio, "--guia", "999"]),
      /ya está marcado como enviado/,
    );
    expectRefusal(await ops(["enviar", esim.folio, "--guia", "1"]), /es de eSIM/);
    expectRefusal(await ops(["enviar", unpaid.folio, "--guia", "1"]), /no está pagado/);
    expectRefusal(await ops(["enviar", physical.folio]), "Falta --guia <número de guía>.");
    expect(await statusChanges(db)).toHaveLength(1);
    expect(await queuedMail(db)).toHaveLength(1);

    const shipped = await ops(["pedidos", "--estado", "enviado"]);
    expect(shipped.stdout).toContain("Estafeta 1234567890");
  });

  it("schedules, completes and rejects portability requests, refusing what does not follow", async () => {
    const date = addDaysToDate(todayInMexico(), 3);
    expectRefusal(
      await ops(["completar", toSchedule.folio]),
      /está recibida: prográmala con una fecha/,
    );
    expectRefusal(
      await ops(["programar", toSchedule.folio, "--fecha", addDaysToDate(todayInMexico(), -1)]),
      /ya pasó/,
    );
    const scheduled = await ops(["programar", toSchedule.folio.toLowerCase(), "--fecha", date]);
    expect(scheduled.code).toBe(0);
    expect(scheduled.stdout).toContain(`Solicitud ${toSchedule.folio} programada para el ${date}.`);
    const completed = await ops([
      "completar",
      toSchedule.folio,
      "--motivo",
      "Portado sin incidencias",
    ]);
    expect(completed.code).toBe(0);
    expect(completed.stdout).toContain("Programada → Completada");
    expect(completed.stdout).toContain("Sin ICCID: la línea portada no se activó en el BSS.");

    expectRefusal(await ops(["rechazar", toReject.folio]), /^Falta --motivo/);
    const reason = "El NIP no corresponde al número; solicita uno nuevo.";
    const rejected = await ops(["rechazar", toReject.folio, "--motivo", reason]);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain(`Motivo: ${reason}`);
    expectRefusal(await ops(["rechazar", toReject.folio, "--motivo", reason]), /ya está rechazada/);

    const rows = await db
      .selectFrom("portability_requests")
      .select(["id", "status", "scheduled_for", "rejection_reason"])
      .where("id", "in", [toSchedule.id, toReject.id])
      .execute();
    expect(rows.find((row) => row.id === toSchedule.id)).toMatchObject({
      status: "completed",
      scheduled_for: date,
    });
    expect(rows.find((row) => row.id === toReject.id)).toMatchObject({
      status: "rejected",
      rejection_reason: reason,
    });
    const keys = (await queuedMail(db)).map((mail) => mail.dedupeKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        `portability-in_progress:${toSchedule.id}`,
        `portability-completed:${toSchedule.id}`,
        `portability-rejected:${toReject.id}`,
      ]),
    );
    expect(keys).toHaveLength(4);
  });

  it(
    "lists the invoices, the RFC masked on screen, and cancels one with SAT's reason, 01 only with its substitute",
    { timeout: 240_000 },
    async () => {
      const purchase = await topupPurchase(db, topup);
      const claim = await claimInvoice(db, {
        purchase,
        fiscal: {
          rfc: "CACX7605101P8",
          kind: "fisica",
          name: "Xochilt Casas Chavez",
          regimen: "612",
          postalCode: "10740",
          uso: "G03",
          email: "xochilt@example.com",
          cardKind: null,
        },
        formaPago: "03",
        accountSub: null,
      });
      if (claim.kind !== "claimed") throw new Error("expected a claim");
      const cfdi = buildCfdi({
        ...SAMPLE,
        items: purchase.items,
        folio: claim.claim.invoice.folio.slice(4),
      });
      const stamped = await createSandboxPac().stamp({
        cfdi,
        items: purchase.items,
        idempotencyKey: claim.claim.idempotencyKey,
        resuming: false,
      });
      await recordIssued(db, claim.claim, { cfdi, stamped, saveProfileFor: null });
      const folio = claim.claim.invoice.folio;

      const listed = await ops(["facturas", "--estado", "vigente"]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(folio);
      expect(listed.stdout).toContain(stamped.uuid);
      expect(listed.stdout).toContain("CACX•••••••P8");
      expect(listed.stdout).not.toContain("CACX7605101P8");
      const csv = await ops(["facturas", "--csv", "-"]);
      expect(csv.stdout).toContain("CACX7605101P8");

      expectRefusal(await ops(["cancelar-factura", folio, "--motivo", "01"]), /--sustituye/);
      const cancelled = await ops([
        "cancelar-factura",
        stamped.uuid,
        "--motivo",
        "02",
        "--razon",
        "RFC equivocado",
      ]);
      expect(cancelled.code).toBe(0);
      expect(cancelled.stdout).toContain(
        `Factura ${folio} (UUID ${stamped.uuid}) cancelada ante el SAT.`,
      );
      expect(cancelled.stdout).toContain("Motivo: 02 Comprobante emitido con errores sin relación");
      expectRefusal(await ops(["cancelar-factura", folio, "--motivo", "02"]), /ya está cancelada/);
      const audit = (await statusChanges(db)).filter((row) => row.subject === "invoice");
      expect(audit).toMatchObject([
        {
          subject_id: claim.claim.invoice.id,
          to_status: "cancelled",
          reason: "RFC equivocado",
          actor: ACTOR,
        },
      ]);
    },
  );

  it("shows a record's history", async () => {
    const run = await ops(["historial", toSchedule.folio]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^${toSchedule.folio} \\(solicitud de portabilidad del `),
    );
    expect(run.stdout).toMatch(/Recibida → Programada\s+para el \d{4}-\d{2}-\d{2}\s+ops:/);
    expect(run.stdout).toMatch(/Programada → Completada\s+Portado sin incidencias\s+ops:/);
    expectRefusal(await ops(["historial", "PED-2020-999999"]), /No existe/);
  });

  it("refuses bad arguments with one Spanish line and exit code 1", async () => {
    expectRefusal(await ops(["borrar"]), "Comando desconocido: borrar.");
    expectRefusal(
      await ops(["pedidos", "--desde", "1/3/2026"]),
      /--desde: "1\/3\/2026" no es una fecha válida/,
    );
    expectRefusal(
      await ops(["pedidos", "--desde", "2026-03-02", "--hasta", "2026-03-01"]),
      /anterior/,
    );
    expectRefusal(
      await ops(["pedidos", "--estado", "perdido"]),
      /--estado: "perdido" no es válido/,
    );
    expectRefusal(await ops(["pedidos", "--color"]), /Opción desconocida para pedidos: --color/);
    expectRefusal(await ops(["enviar"]), /^Falta el folio/);
    expectRefusal(await ops(["completar", toSchedule.folio, "sobra"]), /^Sobra "sobra"/);
    expectRefusal(await ops(["enviar", "PED-2026-999999", "--guia", "1"]), /No existe el pedido/);
  });

  // Text stored before the forms refused control characters (decision 0080), or given by the
  // identity service or the payment provider, reaches the operator's terminal as visible escapes.
  it("shows a customer's escape sequences, BEL, CR/LF and bidi overrides as escapes, never raw", async () => {
    const hostileName = "\u001B[31mAna\u0007\r\nPED-2020-999999\u202Ezepól\u001B]0;pwned\u0007";
    const day = "2020-01-15";
    const order = await makeOrder(db, { createdAt: `${day}T18:00:00.000Z` });
    const request = await makePortabilityRequest(db, { createdAt: `${day}T18:00:00.000Z` });
    // Written straight to the database, as rows from before the fix would be.
    await db
      .updateTable("orders")
      .set({
        full_name: hostileName,
        street: "Calle \u2066Falsa\u2069\r\n123",
        carrier: "\u001B[2JEstafeta",
        tracking_number: "1\u009B2",
        shipped_at: `${day}T19:00:00.000Z`,
      })
      .where("id", "=", order.ref)
      .execute();
    await db
      .updateTable("portability_requests")
      .set({ full_name: hostileName })
      .where("id", "=", request.id)
      .execute();
    const escaped = "\\u001B[31mAna\\u0007\\u000D\\u000APED-2020";
    const range = ["--desde", day, "--hasta", day];
    const withoutLineEnds = (text: string) => text.replaceAll("\r\n", "").replaceAll("\n", "");

    for (const args of [
      ["pedidos", ...range],
      ["pedidos", ...range, "--csv", "-"],
      ["portabilidades", ...range],
      ["portabilidades", ...range, "--csv", "-"],
    ]) {
      const run = await ops(args);
      expect(run.code, args.join(" ")).toBe(0);
      expect(hasControlCharacters(withoutLineEnds(run.stdout)), args.join(" ")).toBe(false);
      expect(run.stdout).toContain(escaped);
      // One row: the CR/LF in the name makes no line (or CSV record) of its own.
      const csv = args.includes("--csv");
      expect(run.stdout.split(csv ? "\r\n" : "\n"), args.join(" ")).toHaveLength(csv ? 3 : 6);
    }
    const csv = await ops(["pedidos", ...range, "--csv", "-"]);
    expect(csv.stdout).toContain("\\u202Ezepól\\u001B]0;pwned\\u0007,");
    expect(csv.stdout).toContain("Calle \\u2066Falsa\\u2069\\u000D\\u000A123 1234");

    const file = await ops(["pedidos", ...range, "--csv", "legacy.csv"]);
    expect(file.code).toBe(0);
    expect(readFileSync(path.join(dataDir, "legacy.csv"), "utf8")).toBe(csv.stdout);

    // A refusal that names what is stored (the carrier and tracking number) escapes it too.
    const again = await ops(["enviar", order.folio, "--guia", "1"]);
    expectRefusal(again, /ya está marcado como enviado \(\\u001B\[2JEstafeta, guía 1\\u009B2\)/);
  });

  it("records usage on a simulated line in MB or GB, and the balance goes down", async () => {
    const run = await ops(["consumo", line, "--datos", "500MB", "--minutos", "12", "--sms", "3"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `Consumo registrado en la línea ${line} (${todayInMexico()}): 500 MB de datos, 12 minutos, 3 SMS.`,
    );
    expect(run.stdout).toContain("Le queda: datos: 4,620 MB de 5,120 MB; minutos: ilimitados");
    const more = await ops(["consumo", line, "--datos", "1.5GB"]);
    expect(more.code).toBe(0);
    expect(more.stdout).toContain("1,536 MB de datos");
    expect((await simulator.findLine(line))?.balances.dataMb).toEqual({
      remaining: 5120 - 500 - 1536,
      total: 5120,
    });
    const [today] = await simulator.usageByDay(line, todayInMexico(), todayInMexico());
    expect(today).toMatchObject({ dataMb: 2036, minutes: 12, sms: 3 });
  });

  it("refuses usage that cannot have happened, or off the simulator, and changes no balance", async () => {
    const before = await simulator.findLine(line);
    for (const [args, message] of [
      [["--datos=-500MB"], /^--datos no puede ser negativo/],
      [["--datos", "2000GB"], /^--datos: es demasiado para un día/],
      [["--datos", "0.5MB"], /^--datos debe ser un número entero de MB/],
      [["--datos", "mucho"], /^--datos: no se entiende la cantidad/],
      [["--minutos", "1e9"], /^--minutos: no es un número/],
      [["--sms=-1"], /^--sms no puede ser negativo/],
      [[], /^Indica qué consumió la línea/],
      [["--datos", "0MB"], /^Indica qué consumió la línea/],
    ] as const) {
      expectRefusal(await ops(["consumo", line, ...args]), message);
    }
    expectRefusal(await ops(["consumo", "55123", "--datos", "1MB"]), /no es un número de línea/);
    expectRefusal(
      await ops(["consumo", "9900000001", "--datos", "1MB"]),
      "La línea 9900000001 no existe en el BSS simulado.",
    );
    expectRefusal(await ops(["consumo", guestLine, "--datos", "1MB"]), /no está activa/);
    expectRefusal(await ops(["consumo"]), /^Falta el número: npm run ops -- consumo <número>/);
    expectRefusal(
      await ops(["consumo", line, "--datos", "1MB"], {
        BSS_PROVIDER: "tmf",
        BSS_BASE_URL: "https://bss.example.invalid/tmf-api",
        BSS_TOKEN_URL: "https://bss.example.invalid/oauth/token",
        BSS_CLIENT_ID: "tienda",
        BSS_CLIENT_SECRET: "secreto-de-prueba",
      }),
      /^consumo solo funciona con el BSS simulado/,
    );
    expect(await simulator.findLine(line)).toEqual(before);
  });

  it("lists the requests for an assisted validation with their contact, and as CSV", async () => {
    const empty = await ops(["validaciones-asistidas"]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe("No hay solicitudes de validación asistida con esos filtros.\n");
    const byPhone = await recordAssistedValidation(db, {
      idempotencyKey: "ops-test-key-1",
      number: "5511112222",
      contact: { kind: "phone", value: "5533334444" },
      timeWindow: "tarde",
    });
    const byMail = await recordAssistedValidation(db, {
      idempotencyKey: "ops-test-key-2",
      number: "5511113333",
      contact: { kind: "email", value: "ana@ejemplo.mx" },
      timeWindow: "manana",
    });
    const all = await ops(["validaciones-asistidas"]);
    expect(all.code).toBe(0);
    const lines = all.stdout.split("\n");
    expect(lines[0]).toMatch(/^Folio +Solicitada el +Número a registrar +Contacto +Horario/);
    expect(lines[2]).toContain(byMail.request.folio);
    expect(lines[2]).toContain("Correo: ana@ejemplo.mx");
    expect(lines[2]).toContain("Mañana (9:00 a 13:00)");
    expect(lines[3]).toContain(byPhone.request.folio);
    expect(lines[3]).toContain("5511112222");
    expect(lines[3]).toContain("Teléfono: 5533334444");
    expect(all.stdout).toContain("2 solicitudes de validación asistida.");
    const csv = await ops(["validaciones-asistidas", "--csv", "-"]);
    const records = csv.stdout.replace(/^\uFEFF/, "").split("\r\n");
    expect(records[0]).toBe(
      "Folio,Solicitada el,Número a registrar,Contacto,Teléfono o correo,Horario",
    );
    expect(records[2]).toMatch(
      new RegExp(`^${byPhone.request.folio},[^,]+,5511112222,Teléfono,5533334444,Tarde`),
    );
    const future = await ops(["validaciones-asistidas", "--desde", "2099-01-01"]);
    expect(future.stdout).toBe("No hay solicitudes de validación asistida con esos filtros.\n");
    expectRefusal(await ops(["validaciones-asistidas", "--estado", "x"]), /Opción desconocida/);
  });

  it("lists the store's lines with the BSS's status and vigencia, filtered, and as CSV", async () => {
    const all = await ops(["lineas"]);
    expect(all.stderr).toBe("");
    expect(all.code).toBe(0);
    const rows = all.stdout.split("\n");
    expect(rows[0]).toMatch(/^Número\s+Estado\s+Paquete\s+Vigencia hasta\s+Datos restantes/);
    expect(rows[2]).toMatch(
      new RegExp(
        `^${line}\\s+Activa\\s+Conecta 150\\s+\\d{4}-\\d{2}-\\d{2}\\s+.*eSIM ${esim.folio}\\s+Sí`,
      ),
    );
    expect(rows[3]).toMatch(new RegExp(`^${guestLine}\\s+Suspendida\\s.*Agregada con código SMS`));
    expect(all.stdout).toContain("2 líneas.");

    const suspended = await ops(["lineas", "--estado", "suspendida"]);
    expect(suspended.stdout).toContain(guestLine);
    expect(suspended.stdout).not.toContain(`${line} `);
    expect(suspended.stdout).toContain("1 línea.");
    expect((await ops(["lineas", "--estado", "portando"])).stdout).toBe(
      "No hay líneas con esos filtros.\n",
    );
    expectRefusal(await ops(["lineas", "--estado", "perdida"]), /--estado: "perdida" no es válido/);

    const csv = await ops(["lineas", "--csv", "-"]);
    expect(
      csv.stdout.startsWith(
        "\uFEFFNúmero,Estado,Paquete,Vigencia hasta,Datos restantes,Origen,Cuenta,Desde\r\n",
      ),
    ).toBe(true);
    expect(csv.stdout).toContain(`${line},Activa,Conecta 150,`);
    expect(csv.stdout).toContain(",sub-ana,");
  });

  it("records the ICCIDs of the SIMs shipped, one per SIM, and refuses bad ones", async () => {
    const order = await makeOrder(db);
    expectRefusal(
      await ops(["enviar", order.folio, "--guia", "1", "--iccid", `${testIccid(910)}`]),
      /lleva 2 SIM: indica 2 ICCID separados por comas.*\(recibí 1\)/,
    );
    expectRefusal(
      await ops(["enviar", order.folio, "--guia", "1", "--iccid", `${testIccid(910)},89520100`]),
      /^El ICCID 89520100 no es válido/,
    );
    expectRefusal(
      await ops(["enviar", order.folio, "--guia", "1", "--iccid", " "]),
      /^--iccid: falta/,
    );
    expect(await statusChanges(db)).not.toContainEqual(
      expect.objectContaining({ subject_id: order.ref }),
    );
    const run = await ops([
      "enviar",
      order.folio,
      "--guia",
      "77",
      "--iccid",
      `${testIccid(910)}, ${testIccid(911)}`,
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `Pedido ${order.folio} marcado como enviado (guía 77, ICCID en orden ${testIccid(910)}, ${testIccid(911)}).`,
    );
    const sims = await db
      .selectFrom("shipped_sims")
      .select(["position", "iccid"])
      .where("order_id", "=", order.ref)
      .orderBy("position")
      .execute();
    expect(sims).toEqual([
      { position: 0, iccid: testIccid(910) },
      { position: 1, iccid: testIccid(911) },
    ]);

    const late = await makeOrder(db, { items: [{ id: "conecta-150", quantity: 1 }] });
    expect((await ops(["enviar", late.folio, "--guia", "78"])).code).toBe(0);
    expectRefusal(
      await ops(["enviar", late.folio, "--iccid", testIccid(910)]),
      `El ICCID ${testIccid(910)} ya se registró con el pedido ${order.folio}; no se cambió nada.`,
    );
    const recorded = await ops(["enviar", late.folio, "--iccid", testIccid(912)]);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toContain(
      `Pedido ${late.folio}: SIM registradas (ICCID ${testIccid(912)})`,
    );
    expect(recorded.stdout).not.toContain("Correo");
  });

  it("lists the work for the BSS and puts a refused job back in its queue, audited", async () => {
    const now = new Date();
    const refusedId = topupJobId(topup.id);
    await queueLineJob(db, {
      id: refusedId,
      kind: "apply-topup",
      payload: { topupId: topup.id, number: "5512345678", amount: 100, offerId: "recarga-100" },
      now,
    });
    await db
      .updateTable("line_jobs")
      .set({
        state: "refused",
        attempts: 1,
        last_error: "refused: unknown-number 404",
        done_at: now.toISOString(),
      })
      .where("id", "=", refusedId)
      .execute();
    const pendingId = activationJobId(portInActivationRef(toSchedule.id));
    await queueLineJob(db, {
      id: pendingId,
      kind: "activate-line",
      payload: {
        externalId: portInActivationRef(toSchedule.id),
        iccid: testIccid(950),
        offerId: "conecta-150",
        accountSub: null,
        source: "portability",
        sourceRef: toSchedule.id,
      },
      now: new Date(now.getTime() + 1000),
    });
    const refusedRef = lineJobLogRef(refusedId);
    const pendingRef = lineJobLogRef(pendingId);
    // A registration to tell the BSS (decision 0100): named by its folio, the number not shown.
    const registrationRef = lineJobLogRef(
      await queueRegistrationAtBss(db, {
        number: "9900030042",
        folio: "VIN-2026-000042",
        now: new Date(now.getTime() + 2000),
      }),
    );

    const listed = await ops(["trabajos"]);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.split("\n");
    expect(rows.find((row) => row.includes(refusedRef))).toMatch(
      new RegExp(`Aplicar recarga +${topup.folio} +Rechazado por el BSS +1 +unknown-number 404`),
    );
    expect(rows.find((row) => row.includes(pendingRef))).toMatch(
      new RegExp(`Activar línea +${toSchedule.folio} +En cola +0`),
    );
    expect(rows.find((row) => row.includes(registrationRef))).toMatch(
      /Informar registro de la línea +VIN-2026-000042 +En cola +0/,
    );
    expect(listed.stdout).not.toContain("9900030042");
    // The job's id holds the receipt's key: only its digest is shown.
    expect(listed.stdout).not.toContain(topup.id);
    const refusedOnly = await ops(["trabajos", "--estado", "rechazado"]);
    expect(refusedOnly.stdout).toContain(refusedRef);
    expect(refusedOnly.stdout).not.toContain(pendingRef);

    expectRefusal(await ops(["reintentar", pendingRef]), /está en cola, no rechazado/);
    expectRefusal(await ops(["reintentar", "lj_AAAAAAAAAAAA"]), /No existe ningún trabajo del BSS/);
    expectRefusal(await ops(["reintentar", "REC-2026-000001"]), /no es una referencia de trabajo/);
    expectRefusal(await ops(["reintentar"]), /Falta el trabajo/);
    const before = (await statusChanges(db)).length;
    const mailsBefore = (await queuedMail(db)).length;

    const retried = await ops([
      "reintentar",
      refusedRef,
      "--motivo",
      "Número dado de alta en el BSS",
    ]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(
      `Trabajo ${refusedRef} (aplicar recarga): Rechazado por el BSS → En cola.`,
    );
    expect(retried.stdout).toContain("El BSS lo había rechazado: unknown-number 404.");
    const job = await db
      .selectFrom("line_jobs")
      .selectAll()
      .where("id", "=", refusedId)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: "pending", last_error: null, done_at: null });
    expect(Number(job.attempts)).toBe(0);
    expect(Date.parse(job.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    const changes = await statusChanges(db);
    expect(changes).toHaveLength(before + 1);
    expect(changes.at(-1)).toMatchObject({
      subject: "line_job",
      subject_id: refusedId,
      from_status: "refused",
      to_status: "pending",
      reason: "Número dado de alta en el BSS",
      actor: ACTOR,
    });
    // The customer is not written to: the top-up's receipt shows it applied once it is.
    expect(await queuedMail(db)).toHaveLength(mailsBefore);

    expectRefusal(await ops(["reintentar", refusedRef]), /está en cola, no rechazado/);
  });

  it("lists the lines registered to their holders, the CURP masked on screen and whole only in the CSV", async () => {
    // The server's session secret: the registrations' keys come from it, in the test and in ops.
    const SESSION_SECRET = "ops-registrations-session-secret-0123456789";
    const keys = createRegistrationKeys([SESSION_SECRET]);
    const curp = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");
    const registration = async (number: string, at: string) => {
      const outcome = await registerLine(db, keys, {
        number,
        holder: holderSchema.parse({
          holder_kind: "fisica",
          full_name: "Beatriz Gómez Martínez",
          curp,
          identification_type: "ine",
        }),
        validation: { outcome: "valid", source: "RENAPO", reference: "R-1" },
        channel: "online",
        accountSub: null,
        now: new Date(at),
      });
      if (outcome.kind !== "registered") throw new Error(outcome.kind);
      noticeTokens.push(...outcome.smsNotices.map((notice) => notice.token));
      return outcome.registration;
    };
    const noticeTokens: string[] = [];
    const june = await registration("5522220001", "2026-06-30T18:00:00.000Z");
    const july = await registration("5522220002", "2026-07-02T18:00:00.000Z");
    const run = (args: string[]) => ops(["registros", ...args], { SESSION_SECRET });

    const all = await run([]);
    expect(all.stderr).toBe("");
    expect(all.code).toBe(0);
    const rows = all.stdout.split("\n");
    expect(rows[0]).toMatch(
      /^Folio\s+Número\s+Titular\s+Nombre\s+CURP\/RFC\s+Identificación\s+Validación\s+Canal\s+Registrada el$/,
    );
    expect(rows[2]).toMatch(
      new RegExp(
        `^${july.folio}\\s+5522220002\\s+Persona física\\s+Beatriz Gómez Martínez\\s+GOMA•+\\d{2}\\s+INE\\s+RENAPO\\s+En línea\\s+2026-07-02 12:00$`,
      ),
    );
    expect(rows[3]).toContain(june.folio);
    expect(all.stdout).toContain("\n2 registros.\n");
    expect(all.stdout).not.toContain(curp);

    const june30 = await run([
      "--desde",
      "2026-06-30",
      "--hasta",
      "2026-06-30",
      "--estado",
      "registrada",
    ]);
    expect(june30.stdout).toContain(june.folio);
    expect(june30.stdout).not.toContain(july.folio);
    expect(june30.stdout).toContain("1 registro.");

    const csv = await run(["--csv", "-"]);
    expect(csv.stdout.split("\r\n")[0]).toBe(
      "\uFEFFFolio,Número,Titular,Nombre,CURP/RFC,Identificación,Validación,Referencia de la validación,Canal,Registrada el,Cuenta",
    );
    expect(csv.stdout).toContain(
      `${june.folio},5522220001,Persona física,Beatriz Gómez Martínez,${curp},INE,RENAPO,R-1,En línea,2026-06-30 12:00,`,
    );
    const file = await run(["--csv", "registros.csv"]);
    expect(file.stdout).toBe(
      `CSV escrito en ${path.join(dataDir, "registros.csv")} (2 registros).\n`,
    );
    expect(readFileSync(path.join(dataDir, "registros.csv"), "utf8")).toContain(curp);

    expect(all.stdout).toContain("Por estado: 2 registradas, 0 pendientes, 0 suspendidas.\n");

    // July's registration was texted to June's line, whose holder said "no fui yo" (0136).
    expect(noticeTokens).toHaveLength(1);
    await disputeNotice(db, noticeTokens[0], new Date("2026-07-02T19:00:00.000Z"));
    const disputed = await run(["--estado", "disputada"]);
    expect(disputed.code).toBe(0);
    expect(disputed.stdout.split("\n")[0]).toMatch(/Registrada el\s+«No fui yo» el$/);
    expect(disputed.stdout).toMatch(new RegExp(`${july.folio}\\s+5522220002.*2026-07-02 13:00`));
    expect(disputed.stdout).not.toContain(june.folio);
    expect(disputed.stdout).not.toContain(curp);
    expect(disputed.stdout).toContain("1 registro.");

    // Lines activated since: one waits for its registration (its order named a holder), one has
    // none (its order is from before the checkout asked).
    const withHolder = await makeOrder(db, {
      simType: "esim",
      holder: {
        holder: checkoutHolderSchema.parse({
          holder_kind: "fisica",
          full_name: "Beatriz Gómez Martínez",
          curp,
          identification_type: "ine",
        }),
        keys,
      },
    });
    const withoutHolder = await makeOrder(db, { simType: "esim" });
    const activated = new Date("2026-07-03T18:00:00.000Z");
    for (const [order, number] of [
      [withHolder, "5522220003"],
      [withoutHolder, "5522220004"],
    ] as const) {
      await awaitRegistration(db, {
        number,
        source: "esim",
        sourceRef: `${order.ref}:0`,
        accountSub: null,
        now: activated,
      });
    }
    const pending = await run(["--estado", "pendiente"]);
    expect(pending.code).toBe(0);
    expect(pending.stdout.split("\n")[0]).toMatch(
      /^Número\s+Estado\s+Origen\s+Motivo\s+Intentos\s+Activada el\s+Próximo intento$/,
    );
    expect(pending.stdout).toMatch(/5522220003\s+Pendiente\s+Compra\s+0\s+2026-07-03 12:00/);
    expect(pending.stdout).not.toContain("5522220004");
    expect(pending.stdout).toContain("\n1 línea.\n");
    expect(pending.stdout).toContain("Por estado: 2 registradas, 1 pendiente, 1 suspendida.\n");
    expect(pending.stdout).not.toContain(curp);
    const suspended = await run(["--estado", "suspendida"]);
    expect(suspended.stdout).toMatch(/5522220004\s+Suspendida\s+Compra\s+Sin titular\s+0/);
    expect(suspended.stdout).not.toContain("5522220003");
    expectRefusal(await run(["--estado", "vigente"]), /--estado: "vigente" no es válido/);
    expect((await ops(["ayuda"])).stdout).toMatch(
      /registros .*--estado registrada\|pendiente\|suspendida/,
    );
  });

  it("rekeys the registrations after a SESSION_SECRET rotation, saying how many it rewrote, so the old secret can go", async () => {
    // A database of its own: only this test's registrations, under secrets it chooses.
    const rotationDir = mkdtempSync(path.join(os.tmpdir(), "storefront-ops-rekey-"));
    const rotationDb = await openDatabase({ dataDir: rotationDir });
    const OLD = "ops-rotation-old-session-secret-0123456789";
    const NEW = "ops-rotation-new-session-secret-0123456789";
    const LOST = "ops-rotation-lost-session-secret-012345678";
    const run = (args: string[], secrets: string) =>
      ops(args, { DATA_DIR: rotationDir, INIT_CWD: rotationDir, SESSION_SECRET: secrets });
    const curp = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");
    const register = async (number: string, secrets: string[]) => {
      const outcome = await registerLine(rotationDb, createRegistrationKeys(secrets), {
        number,
        holder: holderSchema.parse({
          holder_kind: "fisica",
          full_name: "Beatriz Gómez Martínez",
          curp,
          identification_type: "ine",
        }),
        validation: { outcome: "valid", source: "RENAPO", reference: "R-9" },
        channel: "online",
        accountSub: null,
      });
      if (outcome.kind !== "registered") throw new Error(outcome.kind);
      return outcome.registration;
    };
    try {
      await register("5533330001", [OLD]);
      await register("5533330002", [OLD]);
      // Registered after the rotation began: already under the new secret.
      await register("5533330003", [NEW, OLD]);

      const rekeyed = await run(["recifrar-registros"], `${NEW},${OLD}`);
      expect(rekeyed.stderr).toBe("");
      expect(rekeyed.code).toBe(0);
      expect(rekeyed.stdout).toBe(
        "Recifrados con el secreto más reciente de SESSION_SECRET: 2 registros (de 3).\n" +
          "Titulares de pedidos que esperan la activación de sus líneas, recifrados: 0.\n" +
          "Ningún registro depende ya de un secreto anterior (los NIP de portabilidad sí, durante 5 días: README, Seguridad).\n",
      );
      // Safe to run again: nothing left to rewrite.
      expect((await run(["recifrar-registros"], `${NEW},${OLD}`)).stdout).toContain(
        ": 0 registros (de 3).",
      );
      // The old secret removed: every CURP still opens for the CSV, and the holder's three lines
      // still count towards the limit under the new secret alone.
      const csv = await run(["registros", "--csv", "-"], NEW);
      expect(csv.code).toBe(0);
      expect(csv.stdout.split(curp)).toHaveLength(4);
      const keys = createRegistrationKeys([NEW]);
      expect(await currentLinesOfHolder(rotationDb, keys, curp)).toBe(3);

      // A registration sealed by a secret no longer listed: told, exit code 1.
      await register("5533330004", [LOST]);
      const lost = await run(["recifrar-registros"], NEW);
      expect(lost.code).toBe(1);
      expect(lost.stdout).toContain(": 0 registros (de 4).");
      expect(lost.stdout).toContain(
        "1 registro no se puede abrir con ningún secreto de SESSION_SECRET: vuelve a poner el secreto retirado",
      );
      expect((await ops(["ayuda"])).stdout).toMatch(/recifrar-registros\n/);
    } finally {
      await rotationDb.destroy();
      rmSync(rotationDir, { recursive: true, force: true });
    }
  });

  it(
    "lists the automatic top-ups in Spanish, the line and the card masked, and how the scheduler stands",
    {
      timeout: 180_000,
    },
    async () => {
      // Ana's line pays itself with a Visa she saved (decisions 0119, 0120).
      await db
        .insertInto("payment_customers")
        .values({
          account_sub: "sub-ana",
          provider: "sandbox",
          customer_ref: "scus_ops",
          created_at: new Date().toISOString(),
        })
        .execute();
      const card = await recordSavedCard(db, "sandbox", {
        customerRef: "scus_ops",
        methodRef: "spm_ops",
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
      });
      await saveAutoTopup(db, {
        accountSub: "sub-ana",
        number: line,
        amount: 150,
        trigger: "low_data",
        thresholdMb: 1024,
        monthlyMax: 2,
        savedCardId: card!.id,
        email: "ana@example.mx",
        now: new Date(),
      });
      const all = await ops(["recargas-automaticas"]);
      expect(all.code).toBe(0);
      const masked = `${line.slice(0, 2)} •••• ${line.slice(6)}`;
      const rows = all.stdout.split("\n");
      expect(rows[0]).toMatch(/^Línea\s+Monto\s+Cuándo\s+Tope\s+Tarjeta\s+Estado\s+Cobros del mes/);
      expect(rows[2]).toContain(masked);
      expect(rows[2]).toContain("$150.00");
      expect(rows[2]).toContain("Menos de 1 GB");
      expect(rows[2]).toContain("2 al mes");
      expect(rows[2]).toContain("Visa •••• 4242 (12/30)");
      expect(rows[2]).toContain("Activa");
      expect(all.stdout).not.toContain(line);
      expect(all.stdout).toContain("1 recarga automática.");
      expect(all.stdout).toContain("Programador: aún no ha revisado ninguna línea");
      expect(all.stdout).toContain("Ningún cobro vencido sin hacer.");
      const stopped = await ops(["recargas-automaticas", "--estado", "detenida"]);
      expect(stopped.stdout).toContain("No hay recargas automáticas con esos filtros.");
      const csv = await ops(["recargas-automaticas", "--csv", "-"]);
      expect(csv.stdout.split("\r\n")[0]).toBe(
        "\uFEFFLínea,Monto,Cuándo,Tope,Tarjeta,Estado,Cobros del mes,Último cobro,Próximo cobro,Revisada,Cambiada",
      );
      expect(csv.stdout).not.toContain(line);
      expectRefusal(
        await ops(["recargas-automaticas", "--estado", "rota"]),
        /--estado: "rota" no es válido/,
      );
    },
  );

  it("never creates a database of its own: a wrong DATA_DIR is refused", async () => {
    const elsewhere = path.join(dataDir, "no-such-dir");
    expectRefusal(await ops(["pedidos"], { DATA_DIR: elsewhere }), /No hay base de datos en/);
    expect(existsSync(elsewhere)).toBe(false);
  });

  it("backs up the database it finds while open, and restores it only where there is none", async () => {
    // A relative name is written where the operator typed the command (INIT_CWD).
    const saved = await ops(["respaldo", "respaldo-prueba.sqlite"]);
    expect(saved.code, saved.stderr).toBe(0);
    const file = path.join(dataDir, "respaldo-prueba.sqlite");
    expect(saved.stdout).toContain(`Respaldo escrito en ${file} (`);
    expect(saved.stdout).toMatch(/Contiene: \d+ pedidos, /);
    expectRefusal(await ops(["respaldo", file]), /^Ya existe .*: respaldo no sobrescribe/);
    expectRefusal(
      await ops(["restaurar", file]),
      /^Ya hay una base de datos en .*storefront\.sqlite: /,
    );
    expectRefusal(await ops(["restaurar"]), /^Falta el archivo/);
    const restoredDir = path.join(dataDir, "restaurado");
    const restored = await ops(["restaurar", file], { DATA_DIR: restoredDir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restaurado en .*restaurado\/storefront\.sqlite \(SQLite\) desde /,
    );
    // The restore writes the database only: no session secret of its own beside it.
    expect(readdirSync(restoredDir)).toEqual([DATABASE_FILE_NAME]);
    const listed = await ops(["pedidos"], { DATA_DIR: restoredDir });
    expect(listed.stdout).toContain(physical.folio);
  });

  it("waits only the server's busy timeout for a lock held elsewhere, then changes nothing (exit 2)", async () => {
    const order = await makeOrder(db);
    const holder = new SQLite(path.join(dataDir, DATABASE_FILE_NAME));
    try {
      holder.exec("BEGIN IMMEDIATE");
      const run = await ops(["enviar", order.folio, "--guia", "1"], { DB_BUSY_TIMEOUT_MS: "100" });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^Error inesperado: la base de datos no está disponible \(SQLITE_BUSY/,
      );
      holder.exec("ROLLBACK");
    } finally {
      holder.close();
    }
    const row = await db
      .selectFrom("orders")
      .select("shipped_at")
      .where("id", "=", order.ref)
      .executeTakeFirstOrThrow();
    expect(row.shipped_at).toBeNull();
    const shipped = await ops(["enviar", order.folio, "--guia", "1"]);
    expect(shipped.code).toBe(0);
  });
});
