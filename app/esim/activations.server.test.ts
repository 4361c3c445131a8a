import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue, type Catalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { findOrder, markOrderPaid, placeOrder, type Order } from "~/checkout/orders.server";
import { nowIso, type Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { ensureEsimActivations } from "./activations.server";
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
  return { provisioner: { name: provisioner.name, issue }, issue };
}

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
      expect(parseActivationCode(activation.activationCode)).not.toBeNull();
      expect(activation.testCode).toBe(true);
    }
    expect(new Set(first.activations.map((a) => a.activationCode)).size).toBe(2);
    const again = await ensureEsimActivations(db, provisioner, logger, order);
    expect(again).toEqual(first);
    expect(issue).toHaveBeenCalledTimes(2);
  });

  it("keeps the first code stored when two pages ask at once", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    let calls = 0;
    const provisioner: EsimProvisioner = {
      name: "es2plus",
      issue: async () => {
        calls += 1;
        return {
          activationCode: `LPA:1$smdp.operador.mx$MATCH${calls}`,
          smdpAddress: "smdp.operador.mx",
          matchingId: `MATCH${calls}`,
          iccid: "89520000000000000007",
          testCode: false,
        };
      },
    };
    const [a, b] = await Promise.all([
      ensureEsimActivations(db, provisioner, logger, order),
      ensureEsimActivations(db, provisioner, logger, order),
    ]);
    expect(a).toEqual(b);
  });

  it("asks the customer to come back when the provisioner cannot be reached, and issues later", async () => {
    const order = await paidEsimOrder([{ id: "conecta-200", quantity: 1 }]);
    const down: EsimProvisioner = {
      name: "es2plus",
      issue: () =>
        Promise.reject(new EsimProvisioningUnavailable("no answer", { reason: "timeout" })),
    };
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
