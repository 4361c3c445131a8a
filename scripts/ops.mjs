// npm run ops -- <comando>: the operator's side of the store, from the server's own machine. It
// lists and exports orders, top-ups, portability requests, lines, their registrations to their
// holders and the work queued for the BSS, marks an order shipped (with the ICCIDs of its SIMs), moves a portability request along and
// puts a line job the BSS refused back in its queue; every change is audited
// (status_changes) and, but for the retry, queues the customer's e-mail in the same transaction,
// which the running server then sends. On a simulated BSS it records usage on a line (demos and tests). It opens the server's
// database (DATA_DIR, loaded by the server's own loadConfig) with the server's busy timeout, so it
// works while the server runs. Help and messages are in Spanish: the operator reads them.
//
// Exit codes: 0 done; 1 a refusal, bad arguments or configuration (one line on stderr); 2 an
// unexpected error.
//
// `npm run ops` runs the build of this file, dist/ops.js (`npm run build` bundles it with the
// server, so a production install without dev dependencies has it, decision 0087); from the
// sources, without building: `npx tsx scripts/ops.mjs <comando>`.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const HELP = `Uso: npm run ops -- <comando> [opciones]

Listas (las más recientes primero; fechas AAAA-MM-DD, días de la Ciudad de México, ambos incluidos):
  pedidos         [--desde AAAA-MM-DD] [--hasta AAAA-MM-DD]
                  [--estado pendiente|pagado|enviado|cancelado] [--sim fisica|esim]
                  [--csv archivo.csv|-]
                  "pagado" son los pagados aún sin enviar; "enviado", los que ya tienen guía.
  recargas        [--desde …] [--hasta …] [--estado pendiente|pagada|cancelada] [--csv …]
                  "En la línea": si la recarga pagada ya se aplicó a la línea, sigue en cola
                  (el BSS no responde; se reintenta sola) o el BSS la rechazó (con su motivo).
  portabilidades  [--desde …] [--hasta …] [--estado recibida|programada|completada|rechazada]
                  [--csv …]
  lineas          [--estado activa|suspendida|sin-registro|portando|baja] [--csv …]
                  Las líneas de la tienda (en una cuenta, o activadas sin cuenta) con su estado,
                  paquete y vigencia según el BSS.
  trabajos        [--estado en-cola|rechazado|hecho] [--csv …]
                  El trabajo para el BSS (recargas pagadas, altas de líneas, registros de titular) con su
                  referencia (lj_…, la de los registros del servidor), su folio, intentos y
                  último error. Sin --estado: lo que no está hecho (en cola o rechazado).
  registros       [--desde …] [--hasta …] [--estado registrada|pendiente|suspendida|disputada]
                  [--csv …]
                  Las líneas registradas a su titular (el registro vigente de cada una), con su
                  folio VIN-, titular, identificación, validación y canal. La CURP o el RFC se
                  muestran incompletos (los primeros 4 y los últimos 2 caracteres); el CSV los
                  lleva completos: guárdalo con cuidado. --estado pendiente: líneas activadas
                  con titular cuyo registro se reintenta (la validación de identidad no
                  respondió). --estado suspendida: líneas sin registro (rechazado, sin titular o
                  sin respuesta de la validación por 72 horas); su cliente lo termina en
                  /registro-de-linea. --estado disputada: registros de los que alguien dijo «No
                  fui yo» desde el aviso que recibió (correo o SMS a las otras líneas de esa
                  persona): revísalos con su folio. Al final, cuántas líneas hay en cada estado.
  validaciones-asistidas [--desde …] [--hasta …] [--csv …]
                  Las solicitudes de validación asistida de /registro-de-linea/validacion-asistida
                  (clientes cuya validación de identidad en línea falló): folio VAL-, número a
                  registrar, teléfono o correo para contactarles y horario elegido (hora de la
                  Ciudad de México). Llámales o escríbeles en ese horario citando el folio.
  Con --csv archivo.csv se exportan todas las columnas (dirección de envío, planes…) a un CSV
  que Excel abre con acentos; con --csv - el CSV sale por la salida estándar.

Recargas automáticas:
  recargas-automaticas [--estado activa|detenida|desactivada] [--csv …]
                  Las recargas automáticas de las líneas: línea y tarjeta incompletas (55 •••• 5678,
                  Visa •••• 4242), monto, cuándo (al vencer el paquete o con pocos datos), tope
                  mensual, estado (activa, en pausa sin tarjeta, detenida tras dos cobros
                  rechazados), cobros del mes, último y próximo cobro. Al final, cómo va el
                  programador: su última revisión y si hay cobros vencidos sin hacer.

Cambios (cada uno queda en el historial y pone en cola el correo al cliente):
  enviar <folio> --guia <número> [--paqueteria <nombre>] [--iccid <ICCID>[,<ICCID>…]]
                  [--motivo <texto>]
                  Marca enviado un pedido pagado de SIM física. --iccid: el ICCID impreso en cada
                  SIM, uno por SIM en el orden de los planes del pedido; el cliente la activa con
                  él en /activar. Si el pedido ya se envió sin ellos: enviar <folio> --iccid …
  programar <folio> --fecha AAAA-MM-DD [--motivo <texto>]
                  Recibida → Programada para esa fecha (hoy o después); también reprograma.
  completar <folio> [--iccid <ICCID>] [--motivo <texto>]
                  Programada → Completada, y activa el número portado como línea del cliente en
                  la SIM de su solicitud (o la de --iccid, si la solicitud no tiene). Para una
                  solicitud ya completada sin ICCID: completar <folio> --iccid … activa su línea.
  rechazar <folio> --motivo <texto>
                  Recibida o Programada → Rechazada. El cliente lee el motivo: escríbelo para él.

Facturas (CFDI):
  facturas        [--desde …] [--hasta …] [--estado vigente|cancelada|sin-emitir] [--csv …]
                  Las facturas emitidas en /facturacion: folio FAC-, fecha, estado, compra, UUID,
                  RFC del receptor incompleto (el CSV lo lleva completo, con nombre, régimen, uso,
                  forma de pago y cancelación), total y PAC.
  cancelar-factura <UUID|folio FAC-> --motivo 01|02|03|04 [--sustituye <UUID>] [--razon <texto>]
                  Cancela la factura en el PAC con un motivo del SAT: 01 comprobante con errores
                  con relación (requiere --sustituye, el UUID de la factura que la reemplaza),
                  02 con errores sin relación, 03 no se llevó a cabo la operación, 04 operación
                  nominativa en una factura global. El cliente lo ve en /facturacion y en el PDF.

Registro de líneas:
  recifrar-registros
                  Tras poner un secreto nuevo al principio de SESSION_SECRET (y antes de quitar
                  el anterior): vuelve a cifrar con el nuevo la CURP, el RFC o el pasaporte de
                  cada registro y su huella, y dice cuántos cambió. Es seguro repetirlo. Termina
                  con código 1 si algún registro no se puede abrir con ningún secreto de la
                  lista (falta un secreto retirado: vuelve a ponerlo).

BSS (queda en el historial; al cliente no se le escribe):
  reintentar <trabajo> [--motivo <texto>]
                  Vuelve a poner en cola un trabajo que el BSS rechazó (su referencia lj_… de
                  npm run ops -- trabajos --estado rechazado), una vez corregida la causa en el
                  BSS; el servidor en marcha lo intenta de nuevo. Es seguro: el BSS no aplica
                  dos veces una recarga ni activa dos veces una línea.

Líneas simuladas (solo con BSS_PROVIDER=simulator):
  consumo <número> [--datos 500MB|1.5GB] [--minutos N] [--sms N]
                  Registra consumo de hoy en la línea (baja su saldo como lo haría la red).

Respaldos (con el servidor en marcha; solo leen DATA_DIR y DATABASE_URL):
  respaldo <archivo>  Copia consistente de la base de datos en un archivo nuevo (nunca sobrescribe):
                      SQLite con su API de respaldo en línea; PostgreSQL con pg_dump -Fc (necesita
                      el cliente de PostgreSQL). Dice qué contiene y qué más de DATA_DIR guardar.
  restaurar <archivo> Pone un respaldo en un DATA_DIR sin base de datos, o en la base vacía de
                      DATABASE_URL; se niega si ya hay datos. Después arranca el servidor.

Consulta:
  historial <folio>   Estado actual y cambios hechos (PED-, REC- o POR-).
  ayuda               Esta ayuda.

Usa la misma configuración que el servidor (DATA_DIR o DATABASE_URL, DB_BUSY_TIMEOUT_MS…),
desde la carpeta del proyecto. Funciona con el servidor en marcha; él envía los correos en cola.

Ejemplos:
  npm run ops -- pedidos --estado pagado --sim fisica
  npm run ops -- pedidos --desde 2026-03-01 --hasta 2026-03-31 --csv marzo.csv
  npm run ops -- enviar PED-2026-000123 --guia 1234567890 --paqueteria Estafeta --iccid 8952140012345678901
  npm run ops -- consumo 5599000001 --datos 500MB --minutos 12
  npm run ops -- lineas --estado activa --csv lineas.csv
  npm run ops -- trabajos --estado rechazado
  npm run ops -- cancelar-factura FAC-2026-000012 --motivo 02 --razon "RFC equivocado"
  npm run ops -- recargas-automaticas --estado detenida
  npm run ops -- registros --desde 2026-06-01 --hasta 2026-06-30 --csv registros-junio.csv
  SESSION_SECRET=nuevo,anterior npm run ops -- recifrar-registros
  npm run ops -- reintentar lj_Ab12Cd34Ef56 --motivo "Paquete dado de alta en el BSS"
  npm run ops -- programar POR-2026-000045 --fecha 2026-03-10
  npm run ops -- respaldo /respaldos/tienda-2026-03-04.sqlite
  DATA_DIR=/srv/tienda-nueva npm run ops -- restaurar /respaldos/tienda-2026-03-04.sqlite
  npm run ops -- rechazar POR-2026-000046 --motivo "El NIP no corresponde al número; solicita uno nuevo."
`;

/** Bad arguments, bad configuration or a refusal: one line on stderr, exit code 1. */
class OpsRefusal extends Error {}

const string = { type: "string" };
const LIST_OPTIONS = { desde: string, hasta: string, estado: string, csv: string };
const REASON = { motivo: string };

/** Each command: its options, what it takes first (a folio, a line's number, nothing), what it does. */
const COMMANDS = {
  pedidos: { options: { ...LIST_OPTIONS, sim: string }, subject: null, run: listOrders },
  recargas: { options: LIST_OPTIONS, subject: null, run: listTopups },
  portabilidades: { options: LIST_OPTIONS, subject: null, run: listPortability },
  lineas: { options: { estado: string, csv: string }, subject: null, run: listLines },
  trabajos: { options: { estado: string, csv: string }, subject: null, run: listLineJobs },
  registros: { options: LIST_OPTIONS, subject: null, run: listLineRegistrations },
  "validaciones-asistidas": {
    options: { desde: string, hasta: string, csv: string },
    subject: null,
    run: listAssistedValidations,
  },
  "recargas-automaticas": {
    options: { estado: string, csv: string },
    subject: null,
    run: listAutoTopups,
  },
  "recifrar-registros": { options: {}, subject: null, run: rekeyLineRegistrations },
  enviar: {
    options: { guia: string, paqueteria: string, iccid: string, ...REASON },
    subject: "folio",
    run: ship,
  },
  programar: { options: { fecha: string, ...REASON }, subject: "folio", run: schedule },
  completar: { options: { iccid: string, ...REASON }, subject: "folio", run: complete },
  rechazar: { options: REASON, subject: "folio", run: reject },
  historial: { options: {}, subject: "folio", run: history },
  reintentar: { options: REASON, subject: "trabajo", run: retryLineJob },
  facturas: { options: LIST_OPTIONS, subject: null, run: listInvoices },
  "cancelar-factura": {
    options: { motivo: string, sustituye: string, razon: string },
    subject: "factura",
    run: cancelInvoice,
  },
  consumo: {
    options: { datos: string, minutos: string, sms: string },
    subject: "número",
    run: recordUsage,
  },
  // These two open the database themselves: a backup reads it as it is, and a restore needs it
  // empty (or absent), which opening it the usual way (migrating) would not leave it.
  respaldo: { options: {}, subject: "archivo", ownDatabase: true, run: backup },
  restaurar: { options: {}, subject: "archivo", ownDatabase: true, run: restore },
};

const HELP_WORDS = new Set(["ayuda", "help", "--ayuda", "--help", "-h"]);

/** The app's ops module (app/ops/index.ts), once a command has loaded it. */
let loadedOps = null;

/**
 * Everything the operator reads passes here, on the terminal or in a CSV file. The database's
 * text (a name stored before the forms refused control characters, text from the identity
 * service or the payment provider) may hold escape sequences, BEL, a lone CR or bidi overrides:
 * each is written as a visible escape ("\u001B"), and only the line ends of the output itself
 * are kept (decision 0080). Before the module is loaded only this script's own texts and the
 * operator's arguments are written.
 */
function forOperator(text) {
  return loadedOps ? loadedOps.escapeControlCharacters(text, { keepLineEnds: true }) : text;
}

const out = (text) => process.stdout.write(forOperator(text));

function parse(command, args) {
  const spec = COMMANDS[command];
  try {
    return parseArgs({
      args,
      options: { ...spec.options, ayuda: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const option = /'(-[^' ]+)/.exec(String(error.message))?.[1] ?? "";
    if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      throw new OpsRefusal(
        `Opción desconocida para ${command}: ${option}. Escribe npm run ops -- ayuda.`,
      );
    }
    if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      throw new OpsRefusal(
        `Falta el valor de ${option} (si empieza con "-", escríbelo así: ${option}=-…).`,
      );
    }
    throw new OpsRefusal(`Argumentos no válidos: ${error.message}`);
  }
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

function dateOption(ops, values, name) {
  const value = values[name];
  if (value === undefined) return undefined;
  if (!ops.isIsoDate(value)) {
    throw new OpsRefusal(
      `--${name}: "${value}" no es una fecha válida; escríbela como AAAA-MM-DD.`,
    );
  }
  return value;
}

function wordOption(values, name, words) {
  const value = values[name];
  if (value === undefined) return undefined;
  const found = words[value.trim().toLowerCase()];
  if (!found) {
    const choices = [...new Set(Object.keys(words))].join(", ");
    throw new OpsRefusal(`--${name}: "${value}" no es válido; usa uno de: ${choices}.`);
  }
  return found;
}

function rangeOptions(ops, values) {
  const from = dateOption(ops, values, "desde");
  const to = dateOption(ops, values, "hasta");
  if (from && to && from > to) {
    throw new OpsRefusal(`--hasta (${to}) es anterior a --desde (${from}).`);
  }
  return { from, to };
}

/** The list as a table, or every column as CSV (to a file, or to stdout with "-"). */
function printList(ops, values, columns, rows, [one, many]) {
  if (values.csv !== undefined) {
    const { headers, records } = ops.csvRecords(columns, rows);
    const text = ops.toCsv(headers, records);
    if (values.csv === "-") return out(text);
    if (!values.csv.trim()) throw new OpsRefusal("--csv: falta el nombre del archivo (o - ).");
    // npm runs scripts from the project folder; a relative name is where the operator typed it.
    const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.csv);
    writeFileSync(file, forOperator(text));
    return out(`CSV escrito en ${file} (${plural(rows.length, one, many)}).\n`);
  }
  if (rows.length === 0) return out(`No hay ${many} con esos filtros.\n`);
  out(ops.listTable(columns, rows));
  out(`\n${plural(rows.length, one, many)}.\n`);
}

async function listOrders(ops, db, { values }) {
  const rows = await ops.listOrders(db, {
    ...rangeOptions(ops, values),
    status: wordOption(values, "estado", ops.ORDER_STATUS_WORDS),
    simType: wordOption(values, "sim", ops.SIM_TYPE_WORDS),
  });
  printList(ops, values, ops.ORDER_COLUMNS, rows, ["pedido", "pedidos"]);
}

async function listTopups(ops, db, { values }) {
  const rows = await ops.listTopups(db, {
    ...rangeOptions(ops, values),
    status: wordOption(values, "estado", ops.TOPUP_STATUS_WORDS),
  });
  printList(ops, values, ops.TOPUP_COLUMNS, rows, ["recarga", "recargas"]);
}

async function listPortability(ops, db, { values }) {
  const rows = await ops.listPortabilityRequests(db, {
    ...rangeOptions(ops, values),
    status: wordOption(values, "estado", ops.PORTABILITY_STATUS_WORDS),
  });
  printList(ops, values, ops.PORTABILITY_COLUMNS, rows, [
    "solicitud de portabilidad",
    "solicitudes de portabilidad",
  ]);
}

function required(values, name, what) {
  const value = values[name];
  if (value === undefined || !value.trim()) throw new OpsRefusal(`Falta --${name} ${what}.`);
  return value;
}

/** A change's outcome: what changed and the queued e-mail, or the refusal (exit code 1). */
function report(ops, result) {
  if (!result.ok) throw new OpsRefusal(result.message);
  out(ops.changeText(result));
}

async function ship(ops, db, { folio, values }) {
  const iccids = values.iccid === undefined ? [] : values.iccid.split(",");
  if (values.iccid !== undefined && !values.iccid.trim()) {
    throw new OpsRefusal("--iccid: falta el ICCID (varios, separados por comas).");
  }
  // Only ICCIDs: for an order shipped before they were recorded.
  if (values.guia === undefined && iccids.length > 0) {
    report(
      ops,
      await ops.recordShippedIccids(db, folio, {
        iccids,
        reason: values.motivo,
        actor: ops.opsActor(),
      }),
    );
    return;
  }
  const trackingNumber = required(values, "guia", "<número de guía>");
  report(
    ops,
    await ops.shipOrder(db, folio, {
      trackingNumber,
      carrier: values.paqueteria,
      iccids,
      reason: values.motivo,
      actor: ops.opsActor(),
    }),
  );
}

async function schedule(ops, db, { folio, values }) {
  const date = required(values, "fecha", "AAAA-MM-DD");
  report(
    ops,
    await ops.schedulePortability(db, folio, {
      date,
      reason: values.motivo,
      actor: ops.opsActor(),
    }),
  );
}

async function complete(ops, db, { folio, values }) {
  if (values.iccid !== undefined && !values.iccid.trim()) {
    throw new OpsRefusal("--iccid: falta el ICCID de la SIM a la que se portó el número.");
  }
  const result = await ops.completePortability(db, folio, {
    reason: values.motivo,
    iccid: values.iccid,
    actor: ops.opsActor(),
  });
  report(ops, result);
  if (result.portIn) out(ops.portInText(result.portIn));
}

async function reject(ops, db, { folio, values }) {
  const reason = required(values, "motivo", '"<texto que leerá el cliente>"');
  report(ops, await ops.rejectPortability(db, folio, { reason, actor: ops.opsActor() }));
}

async function listLines(ops, db, { values, services }) {
  const status = wordOption(values, "estado", ops.LINE_STATUS_WORDS);
  const { rows, unanswered } = await ops.listLines(db, services.bss, { status });
  if (status && unanswered > 0) {
    throw new OpsRefusal(
      `El BSS no respondió por ${plural(unanswered, "línea", "líneas")}: no se puede filtrar por estado ahora; inténtalo de nuevo.`,
    );
  }
  printList(ops, values, ops.LINE_COLUMNS, rows, ["línea", "líneas"]);
  if (unanswered > 0 && values.csv !== "-") {
    out(
      `El BSS no respondió por ${plural(unanswered, "línea", "líneas")}: su estado queda sin dato.\n`,
    );
  }
}

async function listLineJobs(ops, db, { values }) {
  const rows = await ops.listLineJobs(db, {
    state: wordOption(values, "estado", ops.LINE_JOB_STATE_WORDS),
  });
  printList(ops, values, ops.LINE_JOB_COLUMNS, rows, ["trabajo", "trabajos"]);
}

async function listLineRegistrations(ops, db, { values, services }) {
  const state = wordOption(values, "estado", ops.REGISTRATION_STATE_WORDS);
  if (state === "pending" || state === "suspended") {
    const rows = await ops.listWaitingLineRows(db, state, rangeOptions(ops, values));
    printList(ops, values, ops.WAITING_LINE_COLUMNS, rows, ["línea", "líneas"]);
  } else if (state === "disputed") {
    const rows = await ops.listDisputedRegistrationRows(db, services.registrationKeys, {
      reveal: values.csv !== undefined,
    });
    printList(ops, values, ops.DISPUTED_REGISTRATION_COLUMNS, rows, ["registro", "registros"]);
  } else {
    const rows = await ops.listRegistrationRows(db, services.registrationKeys, {
      ...rangeOptions(ops, values),
      // The whole CURP or RFC only into the CSV the operator asked for, never on the terminal.
      reveal: values.csv !== undefined,
    });
    printList(ops, values, ops.REGISTRATION_COLUMNS, rows, ["registro", "registros"]);
  }
  // The count of every state now (whatever the filters), after the table; a CSV stays a CSV.
  if (values.csv === undefined) {
    out(ops.registrationCountsText(await ops.registrationStateCounts(db)));
  }
}

async function listAssistedValidations(ops, db, { values }) {
  const rows = await ops.listAssistedValidationRows(db, rangeOptions(ops, values));
  printList(ops, values, ops.ASSISTED_VALIDATION_COLUMNS, rows, [
    "solicitud de validación asistida",
    "solicitudes de validación asistida",
  ]);
}

async function listAutoTopups(ops, db, { values }) {
  const rows = await ops.listAutoTopups(db, {
    state: wordOption(values, "estado", ops.AUTO_TOPUP_STATE_WORDS),
  });
  printList(ops, values, ops.AUTO_TOPUP_COLUMNS, rows, [
    "recarga automática",
    "recargas automáticas",
  ]);
  // After the table, how the scheduler stands; a CSV stays a CSV.
  if (values.csv === undefined) {
    out(ops.autoTopupSchedulerText(await ops.autoTopupSchedulerStats(db)));
  }
}

async function rekeyLineRegistrations(ops, db, { services }) {
  const outcome = await ops.rekeyRegistrationRows(db, services.registrationKeys);
  out(ops.rekeyText(outcome));
  // What was readable is rekeyed; what no secret opens is the operator's to fix before removing one.
  if (outcome.unreadable > 0) process.exitCode = 1;
}

async function retryLineJob(ops, db, { job, values }) {
  const result = await ops.retryRefusedLineJob(db, job, {
    reason: values.motivo,
    actor: ops.opsActor(),
    now: new Date(),
  });
  if (!result.ok) throw new OpsRefusal(result.message);
  out(ops.lineJobRetryText(result));
}

async function listInvoices(ops, db, { values }) {
  const rows = await ops.listInvoiceRows(db, {
    ...rangeOptions(ops, values),
    state: wordOption(values, "estado", ops.INVOICE_STATE_WORDS),
  });
  printList(ops, values, ops.INVOICE_COLUMNS, rows, ["factura", "facturas"]);
}

async function cancelInvoice(ops, db, { folio, values, services }) {
  const motive = ops.cancellationMotiveOf(required(values, "motivo", "01|02|03|04"));
  if (!motive)
    throw new OpsRefusal("--motivo: usa 01, 02, 03 o 04 (motivos de cancelación del SAT).");
  const result = await ops.cancelInvoiceForOperator(db, services.invoicing, folio, {
    motive,
    substituteUuid: values.sustituye ?? null,
    reason: values.razon ?? null,
    actor: ops.opsActor(),
  });
  if (!result.ok) throw new OpsRefusal(result.message);
  out(ops.invoiceCancellationText(result));
}

async function recordUsage(ops, _db, { number, values, services }) {
  const outcome = await ops.recordLineUsage(services.bssSimulator, { number, ...values });
  if (!outcome.ok) throw new OpsRefusal(outcome.message);
  out(ops.usageText(outcome));
}

async function history(ops, db, { folio }) {
  const found = await ops.statusHistory(db, folio);
  if (!found)
    throw new OpsRefusal(`No existe ningún pedido, recarga o solicitud con folio ${folio}.`);
  out(ops.historyText(found));
}

/** The operator's file name: a relative one is where the command was typed (INIT_CWD). */
function operatorFile(name) {
  if (!name.trim()) throw new OpsRefusal("Falta el nombre del archivo.");
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), name);
}

async function backup(ops, location, { file }) {
  const outcome = await ops.takeBackup(location, operatorFile(file));
  if (!outcome.ok) throw new OpsRefusal(outcome.message);
  out(ops.backupText(outcome));
}

async function restore(ops, location, { file }) {
  const outcome = await ops.restoreBackup(location, operatorFile(file));
  if (!outcome.ok) throw new OpsRefusal(outcome.message);
  out(ops.restoreText(outcome));
}

/**
 * Where the server's database is, from the two variables that say so, without loadConfig: a
 * restore runs before the server has ever started (and loadConfig would write a new session
 * secret into the empty DATA_DIR), and a backup from cron needs nothing else.
 */
function databaseLocation(ops) {
  const runtime = ops.unsupportedRuntime();
  if (runtime) throw new OpsRefusal(runtime);
  const shape = ops.environmentSchema.shape;
  const read = (name) => {
    const parsed = shape[name].safeParse(process.env[name] || undefined);
    if (!parsed.success) {
      throw new OpsRefusal(
        `Configuración no válida: ${name}: ${parsed.error.issues[0]?.message ?? "valor no válido"}`,
      );
    }
    return parsed.data;
  };
  return {
    dataDir: path.resolve(read("DATA_DIR")),
    databaseUrl: read("DATABASE_URL") ?? null,
    busyTimeoutMs: read("DB_BUSY_TIMEOUT_MS"),
  };
}

async function loadOps() {
  // The app's own code (app/ops, app/db, app/config.server.ts), loaded once a command needs it:
  // help and bad arguments answer without it.
  loadedOps = await import("../app/ops/index.ts");
  return loadedOps;
}

/** The server's database, as the server opens it: never a new empty one somewhere else. */
async function openServerDatabase(ops) {
  // Read before loadConfig, which outside production writes a session secret into DATA_DIR: a
  // mistyped DATA_DIR must not leave files behind.
  const dataDir = path.resolve(
    ops.environmentSchema.shape.DATA_DIR.parse(process.env.DATA_DIR || undefined),
  );
  const file = path.join(dataDir, ops.DATABASE_FILE_NAME);
  // On PostgreSQL (DATABASE_URL) the server's database is the one that URL names.
  if (!process.env.DATABASE_URL && !existsSync(file)) {
    throw new OpsRefusal(
      `No hay base de datos en ${file}: ejecuta desde la carpeta del proyecto con el mismo DATA_DIR que el servidor.`,
    );
  }
  let config;
  try {
    config = ops.loadConfig(process.env);
  } catch (error) {
    if (error instanceof ops.ConfigError) {
      throw new OpsRefusal(
        `Configuración no válida (usa las mismas variables de entorno que el servidor): ${error.message}`,
      );
    }
    throw error;
  }
  // The same busy timeout as the server: a change waits that long for the server's write lock.
  // Migrations run first, as at the server's start (a no-op when the server already ran them).
  const db = await ops.openDatabase({
    dataDir: config.dataDir,
    busyTimeoutMs: config.DB_BUSY_TIMEOUT_MS,
    databaseUrl: config.DATABASE_URL ?? null,
    poolSize: 2,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  // The BSS the server talks to (BSS_PROVIDER): the simulator over this same database, or the
  // operator's, reached with the server's own settings.
  // The registrations' keys come from the server's session secrets: the CSV opens the holder's
  // sealed CURP or RFC with them.
  return {
    db,
    services: {
      ...ops.operatorBss(config, db),
      registrationKeys: ops.createRegistrationKeys(config.sessionSecrets),
      // The PAC the server stamps at: an invoice is cancelled where it was issued.
      invoicing: ops.invoiceProvider(config, { warn: () => {}, error: () => {} }),
    },
  };
}

/** A database that does not answer is said so, in one line; anything else goes on up. */
function unavailable(ops, error) {
  if (ops.isDatabaseUnavailable(error)) {
    throw new Error(
      `la base de datos no está disponible (${error.code}; ¿otro proceso la tiene bloqueada?). No se cambió nada; inténtalo de nuevo.`,
      { cause: error },
    );
  }
  throw error;
}

async function main(argv) {
  const [command, ...args] = argv;
  if (command === undefined || HELP_WORDS.has(command)) {
    out(HELP);
    return;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    throw new OpsRefusal(`Comando desconocido: ${command}. Escribe npm run ops -- ayuda.`);
  }
  const parsed = parse(command, args);
  if (parsed.values.ayuda) {
    out(HELP);
    return;
  }
  const { positionals, values } = parsed;
  const spec = COMMANDS[command];
  const wanted = spec.subject ? 1 : 0;
  if (spec.subject && positionals.length === 0) {
    throw new OpsRefusal(`Falta el ${spec.subject}: npm run ops -- ${command} <${spec.subject}> …`);
  }
  if (positionals.length > wanted) {
    throw new OpsRefusal(
      `Sobra "${positionals[wanted]}" (un texto con espacios va entre comillas). Escribe npm run ops -- ayuda.`,
    );
  }
  const ops = await loadOps();
  if (spec.ownDatabase) {
    await spec
      .run(ops, databaseLocation(ops), { file: positionals[0], values })
      .catch((error) => unavailable(ops, error));
    return;
  }
  const { db, services } = await openServerDatabase(ops);
  try {
    await spec.run(ops, db, {
      folio: positionals[0],
      number: positionals[0],
      job: positionals[0],
      values,
      services,
    });
  } catch (error) {
    unavailable(ops, error);
  } finally {
    await db.destroy();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof OpsRefusal) {
    process.stderr.write(forOperator(`${error.message}\n`));
    process.exitCode = 1;
  } else {
    process.stderr.write(forOperator(`Error inesperado: ${error?.message ?? error}\n`));
    if (process.env.OPS_DEBUG) process.stderr.write(forOperator(`${error?.stack}\n`));
    process.exitCode = 2;
  }
}
