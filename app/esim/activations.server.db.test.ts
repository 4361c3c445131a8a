import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue, type Catalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { findOrder, markOrderPaid, placeOrder, type Order } from "~/checkout/orders.server";
import { nowIso, type Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { ensureEsimActivations, markEsimInstalled, replaceEsimCode } from "./activations.server";
import {
  EsimProvisioningUnavailable,
  parseActivationCode,
  type EsimProvisioner,
} from "./provisioning";
import { createSandboxProvisioner } from "./sandbox-provisioner.server";

let db: Db;
let catalogue: Catalogue;
const logger = { warn: vi.fn() };

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
});
afterEach(async () => {
  await db.destroy();
});

async function paidEsimOrder(items = [{ id: "conecta-500", quantity: 2 }]): Promise<Order> {
  const { order } = await placeOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    customer: {
      full_name: "Ana López",
      email: "ana@example.com",
      phone_number: "5512345678",
      sim_type: "esim",
      delivery: null,
    },
    lines: priceCart(items, catalogue.find).lines,
  });
  await markOrderPaid(db, order.ref, nowIso());
  return (await findOrder(db, order.ref))!;
}

function counting(provisioner: EsimProvisioner) {
  const issue = vi.fn(provisioner.issue);
  const cancel = vi.fn(provisioner.cancel);
  return { provisioner: { ...provisioner, issue, cancel }, issue, cancel };
}

/** A real SM-DP+'s shape: the answers given, no installations simulated. */
function smdp(issue: EsimProvisioner["issue"]): EsimProvisioner {
  return {
    name: "es2plus",
    simulatesInstallation: false,
    issue,
    cancel: async () => "cancelled",
  };
}

const sandbox = () => createSandboxProvisioner({ secret: "s".repeat(40) });

describe("eSIM activations of a paid order", () => {
  it("issues one well-formed code per eSIM, once, and shows the same codes afterwards", async () => {
    const order = await paidEsimOrder();
    const { provisioner, issue } = counting(createSandboxProvisioner({ secret: "s".repeat(40) }));
    const first = await ensureEsimActivations(db, provisioner, logger, order);
    if (first.status !== "ready") throw new Error("expected codes");
    expect(first.activations).toHaveLength(2);
    expect(first.activations.map((activation) => activation.planName)).toEqual([
      "Conecta 500",
      "Conecta 500",
    ]);
    for (const activation of first.activations) {
      expect(parseActivationCode(activation.activationCode!)).not.toBeNull();
      expect(activation.testCode).toBe(true);
    }
    expect(new Set(first.activations.map((a) => a.activationCode)).size).toBe(2);
    const again = await ensureEsimActivations(db, provisioner, logger, order);
    expect(again).toEqual(first);
    expect(issue).toHaveBeenCalledTimes(2);
  });

  it("keeps the first code stored when two pages ask at once, and releases the other profile", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    let calls = 0;
    // Both pages are at the SM-DP+ before either stores its answer (or half a second passed).
    let bothAsked: () => void = () => {};
    const together = new Promise<void>((resolve) => {
      bothAsked = resolve;
      setTimeout(resolve, 500);
    });
    const { provisioner, cancel } = counting(
      smdp(async () => {
        calls += 1;
        const call = calls;
        if (calls === 2) bothAsked();
        await together;
        return {
          activationCode: `LPA:1$smdp.operador.mx$MATCH${call}`,
          smdpAddress: "smdp.operador.mx",
          matchingId: `MATCH${call}`,
          iccid: `8952000000000000000${call}`,
          testCode: false,
        };
      }),
    );
    const [a, b] = await Promise.all([
      ensureEsimActivations(db, provisioner, logger, order),
      ensureEsimActivations(db, provisioner, logger, order),
    ]);
    expect(a).toEqual(b);
    if (a.status !== "ready") throw new Error("expected codes");
    // Both pages issued a profile; the one nobody will see is withdrawn at the SM-DP+.
    expect(calls).toBe(2);
    const kept = a.activations[0]!.iccid;
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(cancel.mock.calls[0]![0].iccid).not.toBe(kept);
    expect(cancel.mock.calls[0]![0]).toMatchObject({ orderRef: order.ref, position: 0 });
  });

  it("asks the customer to come back when the provisioner cannot be reached, and issues later", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    const down = smdp(() =>
      Promise.reject(new EsimProvisioningUnavailable("no answer", { reason: "timeout" })),
    );
    expect(await ensureEsimActivations(db, down, logger, order)).toEqual({
      status: "unavailable",
    });
    expect(logger.warn).toHaveBeenCalled();
    const up = createSandboxProvisioner({ secret: "s".repeat(40) });
    const later = await ensureEsimActivations(db, up, logger, order);
    expect(later.status).toBe("ready");
  });

  it("issues nothing for an unpaid order", async () => {
    const order = await paidEsimOrder();
    await expect(
      ensureEsimActivations(db, createSandboxProvisioner({ secret: "s".repeat(40) }), logger, {
        ...order,
        status: "pending_payment",
      }),
    ).rejects.toThrow();
  });
});

describe("an installed eSIM", () => {
  it("never shows its code again, on any page that asks", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 2 }]);
    const first = await ensureEsimActivations(db, sandbox(), logger, order);
    if (first.status !== "ready") throw new Error("expected codes");
    expect(await markEsimInstalled(db, order, 1, "2026-11-20T18:00:00.000Z")).toBe(true);
    expect(await markEsimInstalled(db, order, 1)).toBe(false);
    const after = await ensureEsimActivations(db, sandbox(), logger, order);
    if (after.status !== "ready") throw new Error("expected codes");
    expect(after.activations[0]).toMatchObject({ state: "issued" });
    expect(after.activations[0]!.activationCode).toBe(first.activations[0]!.activationCode);
    expect(after.activations[1]).toEqual({
      ...first.activations[1],
      state: "installed",
      activationCode: null,
      installedAt: "2026-11-20T18:00:00.000Z",
    });
    expect(JSON.stringify(after)).not.toContain(first.activations[1]!.activationCode!);
  });

  it("queues its line's activation with the installation, once, with its plan and the order's account", async () => {
    const order = await paidEsimOrder([
      { id: "conecta-200", quantity: 1 },
      { id: "conecta-500", quantity: 1 },
    ]);
    const codes = await ensureEsimActivations(db, sandbox(), logger, order);
    if (codes.status !== "ready") throw new Error("expected codes");
    const signedIn = { ...order, customerSub: "sub-ana" };
    expect(await markEsimInstalled(db, signedIn, 1, "2026-11-20T18:00:00.000Z")).toBe(true);
    expect(await markEsimInstalled(db, signedIn, 1)).toBe(false);
    const jobs = await db.selectFrom("line_jobs").selectAll().execute();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      id: `activation:esim:${order.ref}:1`,
      kind: "activate-line",
      state: "pending",
      created_at: "2026-11-20T18:00:00.000Z",
    });
    expect(JSON.parse(jobs[0]!.payload)).toEqual({
      externalId: `esim:${order.ref}:1`,
      iccid: codes.activations[1]!.iccid,
      offerId: "conecta-500",
      accountSub: "sub-ana",
      source: "esim",
      sourceRef: `${order.ref}:1`,
    });
    // A guest's eSIM: a line in no account.
    await markEsimInstalled(db, order, 0);
    const guest = await db
      .selectFrom("line_jobs")
      .select("payload")
      .where("id", "=", `activation:esim:${order.ref}:0`)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(guest.payload)).toMatchObject({ offerId: "conecta-200", accountSub: null });
  });

  it("cannot have its code replaced: there is no code to lose", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    const { provisioner, cancel } = counting(sandbox());
    await ensureEsimActivations(db, provisioner, logger, order);
    await markEsimInstalled(db, order, 0);
    expect(await replaceEsimCode(db, provisioner, logger, order, 0)).toBe("installed");
    expect(cancel).not.toHaveBeenCalled();
  });
});

describe("a lost code replaced", () => {
  it("withdraws the old code at the provisioner first, then issues a new one in its place", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    const { provisioner, cancel, issue } = counting(sandbox());
    const before = await ensureEsimActivations(db, provisioner, logger, order);
    if (before.status !== "ready") throw new Error("expected codes");
    const old = before.activations[0]!;
    expect(await replaceEsimCode(db, provisioner, logger, order, 0)).toBe("replaced");
    expect(cancel).toHaveBeenCalledWith({
      iccid: old.iccid,
      orderRef: order.ref,
      position: 0,
      generation: 0,
    });
    const after = await ensureEsimActivations(db, provisioner, logger, order);
    if (after.status !== "ready") throw new Error("expected codes");
    expect(issue).toHaveBeenLastCalledWith({ orderRef: order.ref, position: 0, generation: 1 });
    expect(after.activations[0]!.activationCode).not.toBe(old.activationCode);
    expect(after.activations[0]!.iccid).not.toBe(old.iccid);
    // The withdrawn profile is on record, for the operator and an audit.
    expect(
      await db.selectFrom("esim_replaced_profiles").select(["iccid", "generation"]).execute(),
    ).toEqual([{ iccid: old.iccid, generation: 0 }]);
    // A second replacement is the next generation again.
    expect(await replaceEsimCode(db, provisioner, logger, order, 0)).toBe("replaced");
    await ensureEsimActivations(db, provisioner, logger, order);
    expect(issue).toHaveBeenLastCalledWith({ orderRef: order.ref, position: 0, generation: 2 });
  });

  it("keeps the old code when the provisioner cannot withdraw it now", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    const codes = await ensureEsimActivations(db, sandbox(), logger, order);
    const down: EsimProvisioner = {
      ...sandbox(),
      cancel: () =>
        Promise.reject(new EsimProvisioningUnavailable("no answer", { reason: "timeout" })),
    };
    expect(await replaceEsimCode(db, down, logger, order, 0)).toBe("unavailable");
    expect(await ensureEsimActivations(db, sandbox(), logger, order)).toEqual(codes);
  });

  it("records the installation when a phone got to the code first", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    await ensureEsimActivations(db, sandbox(), logger, order);
    const late: EsimProvisioner = { ...sandbox(), cancel: async () => "installed" };
    expect(await replaceEsimCode(db, late, logger, order, 0)).toBe("installed");
    const after = await ensureEsimActivations(db, sandbox(), logger, order);
    expect(after.status === "ready" && after.activations[0]!.state).toBe("installed");
  });

  it("answers unknown for a position the order does not have", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    await ensureEsimActivations(db, sandbox(), logger, order);
    expect(await replaceEsimCode(db, sandbox(), logger, order, 3)).toBe("unknown");
  });
});
