import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/db.server";
import { BssUnavailable } from "~/line/bss";
import { LINE_FORM_INTENTS } from "~/line/line-forms";
import { linkLine } from "~/line/lines.server";
import { answerOf, customer, lineRequests, post } from "../../tests/support/line-requests";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { curpCheckDigit } from "./curp";
import {
  IdValidationUnavailable,
  type IdValidationRequest,
  type IdValidator,
} from "./id-validation";
import {
  createSandboxIdValidator,
  SANDBOX_TEST_CURPS,
  SANDBOX_TEST_DOCUMENT_NUMBERS,
} from "./id-validation-sandbox.server";
import { REGISTRATION_PROOF_MS } from "./registration-access.server";
import { REGISTRATION_INTENTS } from "./registration-form";
import {
  loadRegistrationPage,
  refusalMessages,
  submitRegistration,
} from "./registration-request.server";
import {
  createRegistrationKeys,
  currentRegistration,
  onlineAttemptsLeftFor,
  registerLine,
} from "./registrations.server";

let db: Db;
let lines: ReturnType<typeof lineRequests>;
/** The requests' services, with the registration's own. */
let services: ReturnType<typeof lineRequests>["services"] & { idValidator: IdValidator };
const keys = createRegistrationKeys(["registration-requests-under-test-".padEnd(40, "r")]);

/** A sandbox line (active). */
const LINE = "5512345678";
const URL_OF_PAGE = "http://localhost/registro-de-linea";

const curp = (first17: string) => `${first17}${curpCheckDigit(first17)}`;
const ANA = { full_name: "Ana Gómez Martínez", curp: curp("GOMA900315MDFMRN0") };

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  lines = lineRequests(db);
  const idValidator: IdValidator = createSandboxIdValidator();
  services = Object.assign(lines.services, { registrationKeys: keys, idValidator });
});
afterEach(async () => {
  vi.useRealTimers();
  lines.cleanup();
  await db.destroy();
});

type Browser = ReturnType<typeof lines.browser>;

interface PageData {
  step: string;
  number: string | null;
  codeKey: string;
  holderFormKey: string;
  receipt: Record<string, string> | null;
}

async function page(browser: Browser, query = "") {
  const answer = answerOf(
    await loadRegistrationPage(browser.request(), new URL(URL_OF_PAGE + query)),
  );
  return { ...answer, body: answer.body as PageData };
}

/** A photo's bytes: a JPEG's or PNG's first bytes, then a marker to look for where none may be. */
const IMAGE_MARKER = "identification-photo-marker-7f3a";
const idPhoto = () =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), `${IMAGE_MARKER}-id`], "ine.jpg", {
    type: "image/jpeg",
  });
const selfiePhoto = () =>
  new File(
    [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), `${IMAGE_MARKER}-selfie`],
    "selfie.png",
    { type: "image/png" },
  );

type Files = Record<string, File>;

/** The registration's form as a browser sends it: multipart, with its two photos. */
function postMultipart(fields: Record<string, string>, files: Files) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, file] of Object.entries(files)) body.append(name, file);
  return new Request(URL_OF_PAGE, { method: "POST", body });
}

async function send(
  browser: Browser,
  fields: Record<string, string>,
  sub: string | null = null,
  files: Files | null = null,
) {
  const request = files ? postMultipart(fields, files) : post(URL_OF_PAGE, fields);
  return answerOf(await submitRegistration(browser.request(), request, sub));
}

/** What online registration asks besides the holder: the INE's CIC, its photo and a selfie. */
const EVIDENCE = { document_number: "123456789" };
const evidenceFiles = (): Files => ({ id_photo: idPhoto(), selfie: selfiePhoto() });

async function prove(browser: Browser, number = LINE) {
  const { codeKey } = (await page(browser)).body;
  expect(
    (
      await send(browser, {
        intent: LINE_FORM_INTENTS.sendCode,
        phone_number: number,
        idempotency_key: codeKey,
      })
    ).status,
  ).toBe(303);
  const { codeKey: key } = (await page(browser)).body;
  const typed = await send(browser, {
    intent: LINE_FORM_INTENTS.checkCode,
    code: await lines.code(number),
    idempotency_key: key,
  });
  expect(typed.status).toBe(303);
}

async function registerHolder(
  browser: Browser,
  holder: Record<string, string> = { ...ANA, identification_type: "ine" },
  sub: string | null = null,
  files: Files = evidenceFiles(),
) {
  const { holderFormKey } = (await page(browser)).body;
  return send(
    browser,
    {
      intent: REGISTRATION_INTENTS.register,
      holder_kind: "fisica",
      idempotency_key: holderFormKey,
      ...EVIDENCE,
      ...holder,
    },
    sub,
    files,
  );
}

function result(answer: { body: unknown }) {
  return (answer.body as { result: { error?: Record<string, string[]> } }).result;
}

describe("/registro-de-linea", () => {
  it("registers the proved number's holder: the folio shown with the CURP masked, the account kept, the folio e-mailed", async () => {
    const browser = lines.browser(customer("sub-ana"));
    expect((await page(browser)).body).toMatchObject({ step: "number" });
    await prove(browser);
    expect(await lines.sms(LINE)).toMatchObject([{ template: "line-code-registration" }]);
    expect((await page(browser)).body).toMatchObject({ step: "holder", number: LINE });

    const registered = await registerHolder(
      browser,
      { ...ANA, identification_type: "ine", email: "ana@example.mx" },
      "sub-ana",
    );
    expect(registered.status).toBe(303);
    const shown = (await page(browser)).body;
    expect(shown.step).toBe("registered");
    expect(shown.receipt).toMatchObject({
      number: LINE,
      holderName: ANA.full_name,
      holderKeyMasked: `GOMA${"•".repeat(12)}${ANA.curp.slice(-2)}`,
    });
    expect(shown.receipt!.folio).toMatch(/^VIN-\d{4}-\d{6}$/);
    expect(JSON.stringify(shown)).not.toContain(ANA.curp);

    const registration = await currentRegistration(db, LINE);
    expect(registration).toMatchObject({ channel: "online", accountSub: "sub-ana" });
    const mails = await db.selectFrom("mail_queue").selectAll().execute();
    expect(mails).toMatchObject([{ to_address: "ana@example.mx", template: "line_registered" }]);
    expect(mails[0]!.data).not.toContain(ANA.curp);
    expect(lines.mailer.nudge).toHaveBeenCalled();
    for (const call of [...lines.logger.info.mock.calls, ...lines.logger.warn.mock.calls]) {
      expect(JSON.stringify(call)).not.toContain(ANA.curp);
    }

    // Another browser sees nothing of it.
    expect((await page(lines.browser())).body).toMatchObject({ step: "number" });
  });

  it("lets a signed-in account register its own line without a code, whatever strangers did to the number", async () => {
    lines = lineRequests(db, { limits: { backoffSeconds: 60, failedChecks: 5 } });
    services = Object.assign(lines.services, {
      registrationKeys: keys,
      idValidator: createSandboxIdValidator(),
    });
    await linkLine(db, { number: LINE, accountSub: "sub-ana", source: "added", now: new Date() });
    // A stranger asks for a code (the number's back-off starts) and types five wrong ones.
    const stranger = lines.browser(null, "203.0.113.66");
    await send(stranger, {
      intent: LINE_FORM_INTENTS.sendCode,
      phone_number: LINE,
      idempotency_key: (await page(stranger)).body.codeKey,
    });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await send(stranger, {
        intent: LINE_FORM_INTENTS.checkCode,
        code: "000000",
        idempotency_key: (await page(stranger)).body.codeKey,
      });
    }
    const sendNumber = async (browser: Browser, sub: string | null) =>
      send(
        browser,
        {
          intent: LINE_FORM_INTENTS.sendCode,
          phone_number: LINE,
          idempotency_key: (await page(browser)).body.codeKey,
        },
        sub,
      );
    // Anyone else, signed in or not, is refused codes for it now.
    expect((await sendNumber(lines.browser(customer("sub-beto")), "sub-beto")).status).toBe(429);

    const owner = lines.browser(customer("sub-ana"));
    expect((await sendNumber(owner, "sub-ana")).status).toBe(303);
    expect((await page(owner)).body).toMatchObject({ step: "holder", number: LINE });
    expect(await lines.sms(LINE)).toHaveLength(1);
  });

  it("registers nothing for a number this browser has not proved, or proved more than 15 minutes ago", async () => {
    const browser = lines.browser();
    const unproved = await registerHolder(browser);
    expect(unproved.status).toBe(400);
    expect(result(unproved).error).toEqual({ "": ["registration:errors.proofExpired"] });

    await prove(browser);
    const { holderFormKey } = (await page(browser)).body;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + REGISTRATION_PROOF_MS + 1000 });
    const late = await send(
      browser,
      {
        intent: REGISTRATION_INTENTS.register,
        holder_kind: "fisica",
        idempotency_key: holderFormKey,
        ...ANA,
        ...EVIDENCE,
        identification_type: "ine",
      },
      null,
      evidenceFiles(),
    );
    expect(late.status).toBe(400);
    expect(result(late).error).toEqual({ "": ["registration:errors.proofExpired"] });
    expect(await currentRegistration(db, LINE)).toBeNull();
  });

  it("tells each CURP fault next to the field with a 400, and counts no attempt", async () => {
    const browser = lines.browser();
    await prove(browser);
    const answer = await registerHolder(browser, {
      ...ANA,
      curp: `${ANA.curp.slice(0, 17)}${(Number(ANA.curp.slice(-1)) + 1) % 10}`,
      identification_type: "ine",
    });
    expect(answer.status).toBe(400);
    expect(result(answer).error).toEqual({ curp: ["registration:errors.curpCheckDigit"] });
    expect(await onlineAttemptsLeftFor(db, LINE)).toBe(3);
  });

  it("answers each refusal of the validation by its field (422) and ends the online path after three (429)", async () => {
    const browser = lines.browser();
    await prove(browser);
    const notFound = await registerHolder(browser, {
      full_name: ANA.full_name,
      curp: SANDBOX_TEST_CURPS["not-found"],
      identification_type: "ine",
    });
    expect(notFound.status).toBe(422);
    expect(result(notFound).error).toEqual({
      curp: ["registration:errors.validation.not-found"],
      "": ["registration:errors.attemptsLeft?left=2"],
    });
    const mismatch = await registerHolder(browser, {
      ...ANA,
      full_name: "Beatriz Ruiz Luna",
      identification_type: "ine",
    });
    expect(mismatch.status).toBe(422);
    expect(result(mismatch).error).toEqual({
      full_name: ["registration:errors.validation.name-mismatch"],
      "": ["registration:errors.attemptsLeft?left=1"],
    });
    const deceased = await registerHolder(browser, {
      full_name: ANA.full_name,
      curp: SANDBOX_TEST_CURPS.deceased,
      identification_type: "ine",
    });
    expect(deceased.status).toBe(429);
    expect(deceased.body).toMatchObject({ ended: true });
    expect(result(deceased).error).toEqual({
      "": ["registration:errors.validation.deceasedForm", "registration:errors.attemptsUsed"],
    });

    // The right holder now: the online path has ended for this number.
    const valid = await registerHolder(browser);
    expect(valid.status).toBe(429);
    expect(result(valid).error).toEqual({ "": ["registration:errors.attemptsUsed"] });
    expect(await currentRegistration(db, LINE)).toBeNull();
    const shown = await page(browser);
    expect(shown.status).toBe(429);
    expect(shown.body.step).toBe("in-person");
  });

  it("says the validation could not be made now (503) without counting an attempt", async () => {
    // Before the browser is made: its requests carry the services as they are then.
    services.idValidator = {
      name: "http",
      validate: () => Promise.reject(new IdValidationUnavailable("down", { reason: "timeout" })),
    };
    const browser = lines.browser();
    await prove(browser);
    const answer = await registerHolder(browser);
    expect(answer.status).toBe(503);
    expect(result(answer).error).toEqual({ "": ["registration:errors.validationUnavailable"] });
    expect(await onlineAttemptsLeftFor(db, LINE)).toBe(3);
    expect(await currentRegistration(db, LINE)).toBeNull();
  });

  it("refuses an 11th line for one CURP (409), telling neither how many lines it holds nor which", async () => {
    for (let index = 0; index < 10; index += 1) {
      await registerLine(db, keys, {
        number: `55000000${String(index).padStart(2, "0")}`,
        holder: { holder_kind: "fisica", ...ANA, identification_type: "ine" },
        validation: { outcome: "valid", reference: null, source: "sandbox" },
        channel: "tienda",
        accountSub: null,
      });
    }
    const browser = lines.browser();
    await prove(browser);
    const answer = await registerHolder(browser);
    expect(answer.status).toBe(409);
    expect(result(answer).error).toEqual({
      "": ["registration:errors.lineLimit"],
    });
    expect(await currentRegistration(db, LINE)).toBeNull();
  });

  it("refuses a registration without the identification's number and photos, each told by its field (400), counting no attempt", async () => {
    const browser = lines.browser();
    await prove(browser);
    const bare = await registerHolder(
      browser,
      { ...ANA, identification_type: "ine", document_number: "" },
      null,
      {},
    );
    expect(bare.status).toBe(400);
    expect(result(bare).error).toEqual({
      document_number: ["registration:errors.documentNumberRequired"],
      id_photo: ["registration:errors.idPhotoRequired"],
      selfie: ["registration:errors.selfieRequired"],
    });
    const wrongNumber = await registerHolder(browser, {
      ...ANA,
      identification_type: "pasaporte",
      document_number: "123456789",
    });
    expect(result(wrongNumber).error).toEqual({
      document_number: ["registration:errors.mexicanPassportFormat"],
    });
    // Not an image, whatever the browser says it is; and over 5 MB.
    const notImage = await registerHolder(browser, undefined, null, {
      id_photo: new File(["%PDF-1.7 a document"], "ine.jpg", { type: "image/jpeg" }),
      selfie: new File([new Uint8Array(5 * 1024 * 1024 + 1)], "selfie.jpg", {
        type: "image/jpeg",
      }),
    });
    expect(notImage.status).toBe(400);
    expect(result(notImage).error).toEqual({ selfie: ["registration:errors.imageTooLarge"] });
    const disguised = await registerHolder(browser, undefined, null, {
      id_photo: new File(["%PDF-1.7 a document"], "ine.jpg", { type: "image/jpeg" }),
      selfie: selfiePhoto(),
    });
    expect(disguised.status).toBe(400);
    expect(result(disguised).error).toEqual({ id_photo: ["registration:errors.imageType"] });
    expect(await onlineAttemptsLeftFor(db, LINE)).toBe(3);
    expect(await currentRegistration(db, LINE)).toBeNull();
  });

  it("refuses an identification that is not the holder's, or a selfie that is not live (422, by their fields); the service down is a 503", async () => {
    const browser = lines.browser();
    await prove(browser);
    const mismatch = await registerHolder(browser, {
      ...ANA,
      identification_type: "ine",
      document_number: SANDBOX_TEST_DOCUMENT_NUMBERS["document-mismatch"].ine,
    });
    expect(mismatch.status).toBe(422);
    expect(result(mismatch).error).toEqual({
      document_number: ["registration:errors.validation.document-mismatch"],
      "": ["registration:errors.attemptsLeft?left=2"],
    });
    const photoOfPhoto = await registerHolder(browser, undefined, null, {
      id_photo: idPhoto(),
      selfie: idPhoto(),
    });
    expect(photoOfPhoto.status).toBe(422);
    expect(result(photoOfPhoto).error).toEqual({
      selfie: ["registration:errors.validation.selfie-not-live"],
      "": ["registration:errors.attemptsLeft?left=1"],
    });
    const down = await registerHolder(browser, {
      ...ANA,
      identification_type: "pasaporte",
      document_number: SANDBOX_TEST_DOCUMENT_NUMBERS.unavailable.pasaporte,
    });
    expect(down.status).toBe(503);
    expect(await onlineAttemptsLeftFor(db, LINE)).toBe(1);
    expect(await currentRegistration(db, LINE)).toBeNull();

    const valid = await registerHolder(browser, {
      ...ANA,
      identification_type: "pasaporte",
      document_number: "g 1234 5678",
    });
    expect(valid.status).toBe(303);
    expect(await currentRegistration(db, LINE)).toMatchObject({ identificationType: "pasaporte" });
  });

  it("sends the photos to the validation and keeps them nowhere: no row, no log line", async () => {
    const seen: IdValidationRequest[] = [];
    const sandbox = createSandboxIdValidator();
    services.idValidator = {
      name: "sandbox",
      validate: (request) => {
        seen.push(request);
        return sandbox.validate(request);
      },
    };
    const browser = lines.browser();
    await prove(browser);
    expect((await registerHolder(browser)).status).toBe(303);
    expect(seen).toHaveLength(1);
    expect(seen[0].evidence).toMatchObject({
      document: "ine",
      documentNumber: "123456789",
      idPhoto: { type: "image/jpeg" },
      selfie: { type: "image/png" },
    });
    expect(Buffer.from(seen[0].evidence!.idPhoto.bytes).toString()).toContain(IMAGE_MARKER);

    const hex = Buffer.from(IMAGE_MARKER).toString("hex");
    const base64 = Buffer.from(`${IMAGE_MARKER}-id`).toString("base64").slice(0, 20);
    for (const table of ["registrations", "registration_attempts", "mail_queue", "line_jobs"]) {
      const rows = JSON.stringify(
        await db
          .selectFrom(table as "registrations")
          .selectAll()
          .execute(),
      );
      for (const trace of [IMAGE_MARKER, hex, base64, "123456789"]) {
        expect(rows, table).not.toContain(trace);
      }
    }
    const logged = JSON.stringify([
      ...lines.logger.info.mock.calls,
      ...lines.logger.warn.mock.calls,
      ...lines.logger.error.mock.calls,
    ]);
    for (const trace of [IMAGE_MARKER, base64, "123456789"]) expect(logged).not.toContain(trace);
  });

  it("texts the person's earlier line of the new registration, with a 'no fui yo' link and no CURP", async () => {
    const EARLIER = "5500000077";
    await registerLine(db, keys, {
      number: EARLIER,
      holder: { holder_kind: "fisica", ...ANA, identification_type: "ine" },
      validation: { outcome: "valid", reference: null, source: "sandbox" },
      channel: "tienda",
      accountSub: null,
    });
    const browser = lines.browser();
    await prove(browser);
    expect((await registerHolder(browser)).status).toBe(303);
    const [notice] = await lines.sms(EARLIER);
    expect(notice).toMatchObject({ template: "registration-notice" });
    const text = (notice as { text: string }).text;
    expect(text).toMatch(/\/no-fui-yo\/[0-9a-f]{32}$/);
    expect(text).not.toContain(ANA.curp);
    expect(text).not.toContain(LINE);
  });

  it("refuses a form key of another browser with a 409 and a key of its own", async () => {
    const browser = lines.browser();
    await prove(browser);
    const { holderFormKey } = (await page(lines.browser())).body;
    const answer = await send(
      browser,
      {
        intent: REGISTRATION_INTENTS.register,
        holder_kind: "fisica",
        idempotency_key: holderFormKey,
        ...ANA,
        ...EVIDENCE,
        identification_type: "ine",
      },
      null,
      evidenceFiles(),
    );
    expect(answer.status).toBe(409);
    expect(result(answer).error).toEqual({ "": ["registration:errors.staleForm"] });
    expect(await currentRegistration(db, LINE)).toBeNull();
  });
});

describe("a line suspended for want of a registration (decision 0100)", () => {
  /** Of the BSS simulator's test range of unregistered lines. */
  const UNREGISTERED = "9900030001";

  it("works again when the page shows its folio: the registration lifted it at once", async () => {
    expect((await lines.bss.findLine(UNREGISTERED))?.status).toBe("unregistered");
    const browser = lines.browser();
    await prove(browser, UNREGISTERED);
    expect((await registerHolder(browser)).status).toBe(303);
    expect((await page(browser)).body.step).toBe("registered");
    expect((await lines.bss.findLine(UNREGISTERED))?.status).toBe("active");
    const jobs = await db.selectFrom("line_jobs").select(["kind", "state"]).execute();
    expect(jobs).toEqual([{ kind: "record-registration", state: "done" }]);
  });

  it("registers it all the same with the BSS out of reach, and leaves the lift to the queue", async () => {
    const down = lineRequests(db, {
      bss: {
        ...lines.bss,
        recordRegistration: () =>
          Promise.reject(new BssUnavailable("BSS stand-in", { reason: "timeout" })),
      },
    });
    try {
      Object.assign(down.services, { registrationKeys: keys, idValidator: services.idValidator });
      const browser = down.browser();
      const { codeKey } = answerOf(
        await loadRegistrationPage(browser.request(), new URL(URL_OF_PAGE)),
      ).body as PageData;
      await submitRegistration(
        browser.request(),
        post(URL_OF_PAGE, {
          intent: LINE_FORM_INTENTS.sendCode,
          phone_number: UNREGISTERED,
          idempotency_key: codeKey,
        }),
        null,
      );
      const { codeKey: key } = answerOf(
        await loadRegistrationPage(browser.request(), new URL(URL_OF_PAGE)),
      ).body as PageData;
      await submitRegistration(
        browser.request(),
        post(URL_OF_PAGE, {
          intent: LINE_FORM_INTENTS.checkCode,
          code: await down.code(UNREGISTERED),
          idempotency_key: key,
        }),
        null,
      );
      const { holderFormKey } = answerOf(
        await loadRegistrationPage(browser.request(), new URL(URL_OF_PAGE)),
      ).body as PageData;
      const registered = answerOf(
        await submitRegistration(
          browser.request(),
          postMultipart(
            {
              intent: REGISTRATION_INTENTS.register,
              holder_kind: "fisica",
              idempotency_key: holderFormKey,
              ...ANA,
              ...EVIDENCE,
              identification_type: "ine",
            },
            evidenceFiles(),
          ),
          null,
        ),
      );
      expect(registered.status).toBe(303);
      expect(await currentRegistration(db, UNREGISTERED)).not.toBeNull();
      expect((await lines.bss.findLine(UNREGISTERED))?.status).toBe("unregistered");
      const jobs = await db.selectFrom("line_jobs").select(["kind", "state"]).execute();
      expect(jobs).toEqual([{ kind: "record-registration", state: "pending" }]);
    } finally {
      down.cleanup();
    }
  });
});

describe("where a refusal of the identity validation is told", () => {
  const fisica = { holder_kind: "fisica", ...ANA, identification_type: "ine" } as const;
  it("next to the CURP, the name or the passport; as the form's message for a death or a company", () => {
    expect(refusalMessages(fisica, "not-found").fieldErrors).toEqual({
      curp: ["registration:errors.validation.not-found"],
    });
    expect(refusalMessages(fisica, "name-mismatch").fieldErrors).toEqual({
      full_name: ["registration:errors.validation.name-mismatch"],
    });
    expect(refusalMessages(fisica, "deceased")).toEqual({
      fieldErrors: {},
      formErrors: ["registration:errors.validation.deceasedForm"],
    });
    const foreigner = {
      holder_kind: "extranjera",
      full_name: "John Smith",
      passport_number: "X1234567",
      nationality: "US",
    } as const;
    expect(refusalMessages(foreigner, "not-found").fieldErrors).toEqual({
      passport_number: ["registration:errors.validation.passportNotFound"],
    });
    expect(refusalMessages(foreigner, "document-mismatch").fieldErrors).toEqual({
      passport_number: ["registration:errors.validation.document-mismatch"],
    });
    expect(refusalMessages(fisica, "document-mismatch").fieldErrors).toEqual({
      document_number: ["registration:errors.validation.document-mismatch"],
    });
    expect(refusalMessages(fisica, "selfie-not-live").fieldErrors).toEqual({
      selfie: ["registration:errors.validation.selfie-not-live"],
    });
  });
});
