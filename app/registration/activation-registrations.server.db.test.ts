import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Order } from "~/checkout/orders.server";
import { orderPaymentPurpose } from "~/checkout/order-payments.server";
import type { Db } from "~/db/db.server";
import { queueEsimActivation, queuePortInActivation } from "~/line/activations.server";
import { lineActivationView } from "~/line/activations.server";
import { activationJobId } from "~/line/line-jobs.server";
import { createLineJobs, type LineJobs } from "~/line/line-jobs.server";
import { createBssSimulator, type BssSimulator } from "~/line/simulator.server";
import { collectingLogger } from "../../tests/support/mail-fixtures";
import { testIccid } from "../../tests/support/iccids";
import {
  makeOrder,
  makePortabilityRequest,
  queuedMail,
  seedCatalogue,
} from "../../tests/support/store-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import {
  createActivationRegistrations,
  awaitRegistration,
  lineRegistrationView,
  listWaitingLines,
  type ActivationRegistrations,
} from "./activation-registrations.server";
import { REGISTRATION_GIVE_UP_MS } from "./holder-proof";
import {
  forgetOrderHolder,
  orderHolderProof,
  orderKeepsHolder,
  recordHolderProofRefused,
  recordHolderProved,
  rekeyOrderHolders,
} from "./order-holders.server";
import { curpCheckDigit } from "./curp";
import { checkoutHolderSchema, type CheckoutHolder } from "./holder";
import {
  IdValidationUnavailable,
  type IdValidationRequest,
  type IdValidationResult,
  type IdValidator,
} from "./id-validation";
import { createSandboxIdValidator, SANDBOX_TEST_CURPS } from "./id-validation-sandbox.server";
import { createRegistrationKeys, currentRegistration, registerLine } from "./registrations.server";

// Issue 27, decision 0101: each line an order's activation brings is registered to the holder
// named at checkout (a port-in's to its request's name and CURP), with its own folio; without an
// answer from the validation service it stays "pendiente de registro" and is tried again.

const START = new Date("2026-11-25T16:00:00.000Z");
const keys = createRegistrationKeys(["a-session-secret-of-at-least-32-characters"]);
const withCheckDigit = (first17: string) => first17 + curpCheckDigit(first17);

const ANA_CURP = withCheckDigit("GOMA900315MDFMRN0");
const ana: CheckoutHolder = checkoutHolderSchema.parse({
  holder_kind: "fisica",
  full_name: "Ana Gómez Martínez",
  curp: ANA_CURP,
  identification_type: "ine",
});

let db: Db;
let clock: Date;
let simulator: BssSimulator;
let serial = 0;
const stoppers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await seedCatalogue(db);
  clock = START;
  simulator = createBssSimulator({ db, now: () => clock });
});
afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
  await db.destroy();
});

/** The sandbox, out of reach while `down` says so. */
function validator(state: { down: boolean } = { down: false }): IdValidator & { calls: number } {
  const sandbox = createSandboxIdValidator();
  const watched = {
    name: "sandbox" as const,
    calls: 0,
    async validate(request: IdValidationRequest): Promise<IdValidationResult> {
      watched.calls += 1;
      if (state.down) {
        throw new IdValidationUnavailable("stand-in: down", { reason: "unreachable" });
      }
      return sandbox.validate(request);
    },
  };
  return watched;
}

function workers(idValidator: IdValidator): {
  registrations: ActivationRegistrations;
  lineJobs: LineJobs;
} {
  const logger = collectingLogger().logger;
  const registrations = createActivationRegistrations({
    db,
    keys,
    idValidator,
    logger,
    now: () => clock,
  });
  const lineJobs = createLineJobs({
    db,
    bss: simulator,
    logger,
    now: () => clock,
    onActivated: { inTransaction: awaitRegistration, afterCommit: () => undefined },
  });
  stoppers.push(registrations.stop, lineJobs.stop);
  return { registrations, lineJobs };
}

/** The holder showed their identification after paying (decision 0139), as the proof page records it. */
async function prove(order: Order, document: "ine" | "pasaporte" = "ine"): Promise<void> {
  const proved = await recordHolderProved(db, keys, {
    orderRef: order.ref,
    document,
    reference: "sandbox-proof",
    now: clock,
  });
  if (!proved) throw new Error("the holder was not proved");
}

/** An eSIM order naming `holder`, proved unless told otherwise. */
async function esimOrder(
  holder: CheckoutHolder | null,
  quantity = 1,
  options: { proved?: boolean } = {},
): Promise<Order> {
  const order = await makeOrder(db, {
    simType: "esim",
    items: [{ id: "conecta-200", quantity }],
    email: "compradora@example.mx",
    ...(holder ? { holder: { holder, keys } } : {}),
  });
  if (holder && options.proved !== false) await prove(order);
  return order;
}

/** Installs the order's eSIM at `position` and runs the activation: the line's number. */
async function activate(order: Order, lineJobs: LineJobs, position = 0): Promise<string> {
  serial += 1;
  const id = await queueEsimActivation(
    db,
    {
      orderRef: order.ref,
      position,
      iccid: testIccid(serial),
      planId: "conecta-200",
      accountSub: null,
    },
    clock,
  );
  await lineJobs.runDue();
  const view = await lineActivationView(db, id);
  if (view?.state !== "active") throw new Error("the line was not activated");
  return view.number;
}

const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe("the registration of a line an order activates", () => {
  it("registers it to the order's holder with its own folio (channel checkout), e-mails it, then forgets the holder", async () => {
    const { registrations, lineJobs } = workers(validator());
    const order = await esimOrder(ana);
    expect(await orderKeepsHolder(db, order.ref)).toBe(true);
    const number = await activate(order, lineJobs);
    expect(await lineRegistrationView(db, number)).toEqual({ state: "registering" });

    expect(await registrations.runDue()).toMatchObject({ claimed: 1, registered: 1 });
    const registration = await currentRegistration(db, number);
    expect(registration).toMatchObject({
      number,
      holderName: "Ana Gómez Martínez",
      holderKeyMasked: "GOMA••••••••••••" + ANA_CURP.slice(-2),
      identificationType: "ine",
      channel: "checkout",
      validation: { outcome: "valid", source: "sandbox" },
    });
    expect(registration!.folio).toMatch(/^VIN-2026-\d{6}$/);
    expect(await lineRegistrationView(db, number)).toEqual({
      state: "registered",
      folio: registration!.folio,
      registeredAt: START.toISOString(),
    });
    const view = await lineActivationView(db, activationJobId(`esim:${order.ref}:0`));
    expect(view).toMatchObject({ state: "active", registration: { state: "registered" } });
    expect(await queuedMail(db)).toEqual([
      expect.objectContaining({
        to: "compradora@example.mx",
        template: "line_registered",
        data: { registrationId: registration!.id },
      }),
    ]);
    // Its only line registered: nothing of the holder is kept but the registration.
    expect(await orderKeepsHolder(db, order.ref)).toBe(false);
    expect(await listWaitingLines(db, "pending")).toEqual([]);
  });

  it("keeps the holder until each of the order's lines is registered, each with its own folio", async () => {
    const { registrations, lineJobs } = workers(validator());
    const order = await esimOrder(ana, 2);
    const first = await activate(order, lineJobs, 0);
    await registrations.runDue();
    expect(await orderKeepsHolder(db, order.ref)).toBe(true);
    const second = await activate(order, lineJobs, 1);
    await registrations.runDue();
    const folios = [
      (await currentRegistration(db, first))?.folio,
      (await currentRegistration(db, second))?.folio,
    ];
    expect(new Set(folios).size).toBe(2);
    expect(await orderKeepsHolder(db, order.ref)).toBe(false);
  });

  it("leaves the line pendiente de registro while the validation service does not answer, and registers it on a retry", async () => {
    const service = { down: true };
    const idValidator = validator(service);
    const { registrations, lineJobs } = workers(idValidator);
    const order = await esimOrder(ana);
    const number = await activate(order, lineJobs);

    expect(await registrations.runDue()).toMatchObject({ retrying: 1 });
    expect(await currentRegistration(db, number)).toBeNull();
    expect(await lineRegistrationView(db, number)).toEqual({ state: "pending" });
    expect(await listWaitingLines(db, "pending")).toEqual([
      expect.objectContaining({ number, state: "pending", reason: "unavailable", attempts: 1 }),
    ]);
    // Not due again before its backoff.
    expect(await registrations.runDue()).toMatchObject({ claimed: 0 });

    service.down = false;
    later(60_000);
    expect(await registrations.runDue()).toMatchObject({ registered: 1 });
    expect((await currentRegistration(db, number))?.channel).toBe("checkout");
    expect(await listWaitingLines(db, "pending")).toEqual([]);
    expect(idValidator.calls).toBe(2);
  });

  it("gives up after REGISTRATION_GIVE_UP_MS without an answer: the line is left without registration", async () => {
    const { registrations, lineJobs } = workers(validator({ down: true }));
    const order = await esimOrder(ana);
    const number = await activate(order, lineJobs);
    await registrations.runDue();
    later(REGISTRATION_GIVE_UP_MS);
    expect(await registrations.runDue()).toMatchObject({ suspended: 1 });
    expect(await lineRegistrationView(db, number)).toEqual({ state: "suspended" });
    expect(await listWaitingLines(db, "suspended")).toEqual([
      expect.objectContaining({ number, reason: "unavailable" }),
    ]);
    expect(await orderKeepsHolder(db, order.ref)).toBe(false);
  });

  it("leaves the line without registration when the validation refuses the holder, and forgets the holder", async () => {
    const { registrations, lineJobs } = workers(validator());
    const notFound = checkoutHolderSchema.parse({
      ...ana,
      full_name: "Xavier Xochitl Xicotencatl",
      curp: SANDBOX_TEST_CURPS["not-found"],
    });
    const order = await esimOrder(notFound);
    const number = await activate(order, lineJobs);
    expect(await registrations.runDue()).toMatchObject({ suspended: 1 });
    expect(await currentRegistration(db, number)).toBeNull();
    expect(await lineRegistrationView(db, number)).toEqual({ state: "suspended" });
    expect(await listWaitingLines(db, "suspended")).toEqual([
      expect.objectContaining({ number, reason: "not-found", source: "order" }),
    ]);
    expect(await orderKeepsHolder(db, order.ref)).toBe(false);
    // The BSS is told: the line is suspended, without registration.
    await lineJobs.runDue();
    expect((await simulator.findLine(number))?.status).toBe("unregistered");
    // Registered since by its customer (online): no longer listed as without one, and lifted.
    await registerLine(db, keys, {
      number,
      holder: ana,
      validation: { outcome: "valid", source: "sandbox", reference: null },
      channel: "online",
      accountSub: null,
      now: clock,
    });
    expect(await listWaitingLines(db, "suspended")).toEqual([]);
    await lineJobs.runDue();
    expect((await simulator.findLine(number))?.status).toBe("active");
  });

  it("refuses an 11th line to one holder: the line is left without registration (line-limit)", async () => {
    const { registrations, lineJobs } = workers(validator());
    for (let index = 0; index < 10; index += 1) {
      await registerLine(db, keys, {
        number: `55880${String(index).padStart(5, "0")}`,
        holder: ana,
        validation: { outcome: "valid", source: "sandbox", reference: null },
        channel: "online",
        accountSub: null,
        now: clock,
      });
    }
    const order = await esimOrder(ana);
    const number = await activate(order, lineJobs);
    expect(await registrations.runDue()).toMatchObject({ suspended: 1 });
    expect(await currentRegistration(db, number)).toBeNull();
    expect(await listWaitingLines(db, "suspended")).toEqual([
      expect.objectContaining({ number, reason: "line-limit" }),
    ]);
  });

  it("leaves a line of an order from before the checkout asked for a holder without registration at once", async () => {
    const { registrations, lineJobs } = workers(validator());
    const order = await esimOrder(null);
    const number = await activate(order, lineJobs);
    expect(await lineRegistrationView(db, number)).toEqual({ state: "suspended" });
    await lineJobs.runDue();
    expect((await simulator.findLine(number))?.status).toBe("unregistered");
    expect(await registrations.runDue()).toMatchObject({ claimed: 0 });
    expect(await listWaitingLines(db, "suspended")).toEqual([
      expect.objectContaining({ number, reason: "no-holder" }),
    ]);
  });

  it("forgets the holder of an order cancelled unpaid (its voucher expired)", async () => {
    const order = await makeOrder(db, { paid: false, holder: { holder: ana, keys } });
    expect(await orderKeepsHolder(db, order.ref)).toBe(true);
    await db
      .transaction()
      .execute((trx) => orderPaymentPurpose.onExpired!(trx, { reference: order.ref } as never));
    expect(await orderKeepsHolder(db, order.ref)).toBe(false);
    // And directly, as the purge itself.
    const other = await makeOrder(db, { paid: false, holder: { holder: ana, keys } });
    await forgetOrderHolder(db, other.ref);
    expect(await orderKeepsHolder(db, other.ref)).toBe(false);
  });
});

describe("the order's holder shows their identification first (decision 0139)", () => {
  it("keeps the line waiting for the holder, without asking the validation, and registers it once proved", async () => {
    const idValidator = validator();
    const { registrations, lineJobs } = workers(idValidator);
    const order = await esimOrder(ana, 1, { proved: false });
    expect(await orderHolderProof(db, order.ref)).toEqual({ state: "to-prove", attemptsLeft: 3 });
    const number = await activate(order, lineJobs);

    expect(await registrations.runDue()).toMatchObject({ retrying: 1 });
    expect(idValidator.calls).toBe(0);
    expect(await currentRegistration(db, number)).toBeNull();
    expect(await lineRegistrationView(db, number)).toEqual({
      state: "awaiting-holder",
      orderRef: order.ref,
    });
    expect(await listWaitingLines(db, "pending")).toEqual([
      expect.objectContaining({ number, reason: "holder-unproved" }),
    ]);

    // Proved with a passport: the line is due at once, and registered with that identification.
    later(1_000);
    await prove(order, "pasaporte");
    expect(await orderHolderProof(db, order.ref)).toEqual({
      state: "proved",
      provedAt: clock.toISOString(),
    });
    expect(await registrations.runDue()).toMatchObject({ registered: 1 });
    expect(await currentRegistration(db, number)).toMatchObject({
      holderName: "Ana Gómez Martínez",
      identificationType: "pasaporte",
      channel: "checkout",
    });
    // A second proof of a proved holder changes nothing.
    expect(
      await recordHolderProved(db, keys, {
        orderRef: order.ref,
        document: "ine",
        reference: null,
        now: clock,
      }),
    ).toBe(false);
  });

  it("leaves the line without registration when the holder is not proved within REGISTRATION_GIVE_UP_MS", async () => {
    const { registrations, lineJobs } = workers(validator());
    const order = await esimOrder(ana, 1, { proved: false });
    const number = await activate(order, lineJobs);
    await registrations.runDue();
    later(REGISTRATION_GIVE_UP_MS);
    expect(await registrations.runDue()).toMatchObject({ suspended: 1 });
    expect(await lineRegistrationView(db, number)).toEqual({ state: "suspended" });
    expect(await listWaitingLines(db, "suspended")).toEqual([
      expect.objectContaining({ number, reason: "holder-unproved" }),
    ]);
    await lineJobs.runDue();
    expect((await simulator.findLine(number))?.status).toBe("unregistered");
  });

  it("ends the online proof after three refusals: the waiting line is left without registration at once", async () => {
    const { registrations, lineJobs } = workers(validator());
    const order = await esimOrder(ana, 1, { proved: false });
    const number = await activate(order, lineJobs);
    await registrations.runDue();
    const input = { orderRef: order.ref, now: clock };
    expect(await recordHolderProofRefused(db, input)).toBe(2);
    expect(await recordHolderProofRefused(db, input)).toBe(1);
    expect(await recordHolderProofRefused(db, input)).toBe(0);
    expect(await orderHolderProof(db, order.ref)).toEqual({ state: "ended" });
    // Made due by the last refusal, not after its backoff.
    expect(await registrations.runDue()).toMatchObject({ suspended: 1 });
    expect(await listWaitingLines(db, "suspended")).toEqual([
      expect.objectContaining({ number, reason: "holder-unproved" }),
    ]);
    // No proof is taken once ended.
    expect(
      await recordHolderProved(db, keys, {
        orderRef: order.ref,
        document: "ine",
        reference: null,
        now: clock,
      }),
    ).toBe(false);
  });

  it("keeps a number the checkout kept waiting for the same holder's proof", async () => {
    const idValidator = validator();
    const { registrations, lineJobs } = workers(idValidator);
    const order = await esimOrder(ana, 1, { proved: false });
    const request = await makePortabilityRequest(db);
    await db
      .updateTable("portability_requests")
      .set({ curp: ANA_CURP, full_name: "Ana Gómez Martínez" })
      .where("id", "=", request.id)
      .execute();
    await db
      .insertInto("order_port_ins")
      .values({
        id: request.id,
        order_ref: order.ref,
        position: 0,
        phone_number: request.phoneNumber,
        current_carrier: "telcel",
        state: "filed",
        reason: null,
        nip_sealed: null,
        full_name: "Ana Gómez Martínez",
        curp: ANA_CURP,
        created_at: clock.toISOString(),
        updated_at: clock.toISOString(),
      })
      .execute();
    serial += 1;
    await queuePortInActivation(
      db,
      {
        requestId: request.id,
        number: request.phoneNumber,
        iccid: testIccid(serial),
        planId: "conecta-200",
        accountSub: null,
      },
      clock,
    );
    await lineJobs.runDue();
    expect(await registrations.runDue()).toMatchObject({ retrying: 1 });
    expect(await lineRegistrationView(db, request.phoneNumber)).toEqual({
      state: "awaiting-holder",
      orderRef: order.ref,
    });
    await prove(order);
    expect(await registrations.runDue()).toMatchObject({ registered: 1 });
    expect((await currentRegistration(db, request.phoneNumber))?.channel).toBe("portability");
  });
});

describe("the registration of a completed port-in", () => {
  it("registers the ported number to the name and CURP it was requested with (channel portability)", async () => {
    const { registrations, lineJobs } = workers(validator());
    const request = await makePortabilityRequest(db);
    // The fixture's CURP is another person's: Beatriz Gómez Martínez's own, so RENAPO's rule matches.
    await db
      .updateTable("portability_requests")
      .set({ curp: withCheckDigit("GOMB850312MDFMRT0") })
      .where("id", "=", request.id)
      .execute();
    serial += 1;
    await queuePortInActivation(
      db,
      {
        requestId: request.id,
        number: request.phoneNumber,
        iccid: testIccid(serial),
        planId: "conecta-200",
        accountSub: null,
      },
      clock,
    );
    await lineJobs.runDue();
    expect(await registrations.runDue()).toMatchObject({ registered: 1 });
    const registration = await currentRegistration(db, request.phoneNumber);
    expect(registration).toMatchObject({
      number: request.phoneNumber,
      holderName: "Beatriz Gómez Martínez",
      holderKind: "fisica",
      identificationType: "curp",
      channel: "portability",
    });
    expect(registration!.holderKeyMasked.startsWith("GOMB")).toBe(true);
    expect(await queuedMail(db)).toEqual([
      expect.objectContaining({ to: "beatriz@example.mx", template: "line_registered" }),
    ]);
  });
});

describe("a rotation of SESSION_SECRET", () => {
  it("keeps a waiting holder readable once it is sealed again under the new secret", async () => {
    const order = await makeOrder(db, { simType: "esim", holder: { holder: ana, keys } });
    await prove(order);
    const rotated = createRegistrationKeys([
      "the-new-session-secret-of-at-least-32-characters",
      "a-session-secret-of-at-least-32-characters",
    ]);
    expect(await rekeyOrderHolders(db, rotated)).toBe(1);
    const newOnly = createRegistrationKeys(["the-new-session-secret-of-at-least-32-characters"]);
    const registrations = createActivationRegistrations({
      db,
      keys: newOnly,
      idValidator: validator(),
      logger: collectingLogger().logger,
      now: () => clock,
    });
    stoppers.push(registrations.stop);
    await awaitRegistration(db, {
      number: "5588812345",
      source: "esim",
      sourceRef: `${order.ref}:0`,
      accountSub: null,
      now: clock,
    });
    expect(await registrations.runDue()).toMatchObject({ registered: 1 });
    expect((await currentRegistration(db, "5588812345"))?.holderName).toBe("Ana Gómez Martínez");
  });
});
