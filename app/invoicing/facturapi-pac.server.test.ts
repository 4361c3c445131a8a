import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SAMPLE } from "../../tests/support/cfdi-sample";
import {
  startFacturapiStandIn,
  type FacturapiStandIn,
} from "../../tests/support/facturapi-stand-in";
import { buildCfdi } from "./cfdi";
import { createFacturapiPac } from "./facturapi-pac.server";
import { isInvoiceProviderUnavailable, isInvoiceRefused, type InvoiceProvider } from "./provider";

/**
 * The Facturapi adapter through the official SDK against a local stand-in of Facturapi's API
 * (tests/support/facturapi-stand-in.ts): what it sends, what it makes of each answer.
 */

let standIn: FacturapiStandIn;
let pac: InvoiceProvider;
const logger = { warn: vi.fn(), error: vi.fn() };
const RECEIVER = SAMPLE.receiver;

beforeEach(async () => {
  standIn = await startFacturapiStandIn();
  standIn.taxpayers.set(RECEIVER.rfc, {
    legalName: RECEIVER.name.toUpperCase(),
    taxSystems: ["612", "605"],
    zip: RECEIVER.postalCode,
  });
  pac = createFacturapiPac({
    apiKey: standIn.apiKey,
    apiUrl: standIn.url,
    timeoutMs: 1_500,
    logger,
  });
  logger.error.mockClear();
});

afterEach(async () => {
  await standIn.close();
});

const cfdi = buildCfdi(SAMPLE);
const stamp = (overrides: Partial<Parameters<InvoiceProvider["stamp"]>[0]> = {}) =>
  pac.stamp({ cfdi, items: SAMPLE.items, idempotencyKey: "inv1-1", resuming: false, ...overrides });

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("Facturapi as the PAC", () => {
  it("sends the receiver, one item per concept with SAT's keys and its price with IVA, and gets the stamped CFDI", async () => {
    const stamped = await stamp();
    const created = standIn.requests.find((request) => request.method === "POST")!;
    expect(created.path).toBe("/v2/invoices");
    expect(created.authorization).toBe(`Bearer ${standIn.apiKey}`);
    expect(created.body).toEqual({
      type: "I",
      customer: {
        legal_name: "XOCHILT CASAS CHAVEZ",
        tax_id: RECEIVER.rfc,
        tax_system: "612",
        address: { zip: "10740", country: "MEX" },
      },
      items: [
        {
          quantity: 2,
          product: {
            description: "Plan Conecta 200",
            product_key: "83111603",
            unit_key: "E48",
            unit_name: "Unidad de servicio",
            price: 199,
            tax_included: true,
            taxability: "02",
            taxes: [{ type: "IVA", rate: 0.16 }],
            sku: "conecta-200",
          },
        },
        {
          quantity: 1,
          product: expect.objectContaining({ price: 100, product_key: "83111603" }),
        },
      ],
      payment_form: "04",
      payment_method: "PUE",
      use: "G03",
      currency: "MXN",
      export: "01",
      series: "FAC",
      folio_number: 2026000001,
      external_id: "inv1-1",
      idempotency_key: "inv1-1",
    });
    const invoice = [...standIn.invoices.values()][0];
    expect(stamped).toMatchObject({
      provider: "facturapi",
      providerInvoiceId: invoice.id,
      uuid: invoice.uuid.toUpperCase(),
      total: "498.00",
      stamp: {
        sandbox: false,
        selloCfd: invoice.stamp.signature,
        selloSat: invoice.stamp.sat_signature,
        noCertificadoSat: "30001000000500003456",
        noCertificado: "30001000000500003416",
        rfcProvCertif: "SPR190613I52",
      },
    });
    expect(stamped.xml).toContain(`UUID="${invoice.uuid}"`);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("asked again under the same key, gets the same invoice: nothing is stamped twice", async () => {
    const first = await stamp();
    const again = await stamp();
    expect(again.uuid).toBe(first.uuid);
    expect(standIn.invoices.size).toBe(1);
  });

  it("resuming a try whose answer was lost, finds the invoice by its external id before asking again", async () => {
    const first = await stamp();
    standIn.requests.length = 0;
    const resumed = await stamp({ resuming: true });
    expect(resumed.uuid).toBe(first.uuid);
    expect(standIn.requests.map((request) => request.method)).toEqual(["GET", "GET"]);
    expect(standIn.requests[0].query.get("external_id")).toBe("inv1-1");
  });

  it.each([
    [
      "an RFC SAT does not have",
      () => standIn.taxpayers.delete(RECEIVER.rfc),
      { reason: "tax_id_not_found", field: "rfc", code: "tax_id_not_found" },
    ],
    [
      "a name that is not the RFC's",
      () =>
        standIn.taxpayers.set(RECEIVER.rfc, {
          legalName: "OTRA PERSONA",
          taxSystems: ["612"],
          zip: "10740",
        }),
      { reason: "legal_name_mismatch", field: "nombre", code: "legal_name_mismatch" },
    ],
    [
      "a régimen the RFC does not have",
      () =>
        standIn.taxpayers.set(RECEIVER.rfc, {
          legalName: "XOCHILT CASAS CHAVEZ",
          taxSystems: ["605"],
          zip: "10740",
        }),
      { reason: "tax_system_not_allowed_for_tax_id", field: "regimen" },
    ],
    [
      "a código postal that is not the RFC's",
      () =>
        standIn.taxpayers.set(RECEIVER.rfc, {
          legalName: "XOCHILT CASAS CHAVEZ",
          taxSystems: ["612"],
          zip: "01000",
        }),
      { reason: "tax_address_zip_mismatch", field: "codigo_postal" },
    ],
  ])("reads %s as a refusal next to its field", async (_case, arrange, refusal) => {
    arrange();
    const error = await rejection(stamp());
    expect(isInvoiceRefused(error)).toBe(true);
    expect((error as { refusal: unknown }).refusal).toMatchObject(refusal);
    expect(standIn.invoices.size).toBe(0);
  });

  it("reads SAT's refusal of the use by its path, and any other with the PAC's own words", async () => {
    standIn.taxpayers.set("EKU9003173C9", {
      legalName: "ESCUELA KEMPER URGATE",
      taxSystems: ["601"],
      zip: "42501",
    });
    const moral = buildCfdi({
      ...SAMPLE,
      receiver: {
        rfc: "EKU9003173C9",
        name: "Escuela Kemper Urgate",
        regimen: "601",
        postalCode: "42501",
        uso: "D01",
      },
    });
    const error = await rejection(
      pac.stamp({ cfdi: moral, items: SAMPLE.items, idempotencyKey: "inv2-1", resuming: false }),
    );
    expect((error as { refusal: unknown }).refusal).toMatchObject({
      reason: "use_not_allowed",
      field: "uso",
      code: "CFDI40161",
    });
  });

  it("takes a server error, no answer in time, an invoice left stamping and a wrong key as the PAC out of reach", async () => {
    standIn.failNext = "server-error";
    expect(isInvoiceProviderUnavailable(await rejection(stamp()))).toBe(true);
    standIn.failNext = "hang";
    const hung = await rejection(stamp());
    expect(isInvoiceProviderUnavailable(hung)).toBe(true);
    expect((hung as { reason: string }).reason).toContain("no answer");
    standIn.failNext = "accepted-async";
    expect(isInvoiceProviderUnavailable(await rejection(stamp({ idempotencyKey: "inv3-1" })))).toBe(
      true,
    );
    const wrongKey = createFacturapiPac({
      apiKey: "sk_test_wrong",
      apiUrl: standIn.url,
      timeoutMs: 1_500,
      logger,
    });
    const refused = await rejection(
      wrongKey.stamp({ cfdi, items: SAMPLE.items, idempotencyKey: "inv4-1", resuming: false }),
    );
    expect(isInvoiceProviderUnavailable(refused)).toBe(true);
    expect((refused as { reason: string }).reason).toContain("401");
  });

  it("takes Facturapi down altogether as out of reach", async () => {
    await standIn.close();
    expect(isInvoiceProviderUnavailable(await rejection(stamp()))).toBe(true);
    standIn = await startFacturapiStandIn();
  });

  it("cancels with SAT's motive (01 with the substitute), accepted or pending the receiver", async () => {
    const stamped = await stamp();
    expect(await pac.cancel(stamped.providerInvoiceId, "02", null)).toEqual({ status: "accepted" });
    const cancel = standIn.requests.find((request) => request.method === "DELETE")!;
    expect(cancel.path).toBe(`/v2/invoices/${stamped.providerInvoiceId}`);
    expect(cancel.query.get("motive")).toBe("02");

    const another = await stamp({ idempotencyKey: "inv5-1" });
    const missing = await rejection(pac.cancel(another.providerInvoiceId, "01", null));
    expect(isInvoiceRefused(missing)).toBe(true);
    expect((missing as { refusal: { code: string } }).refusal.code).toBe(
      "substitution_invoice_required",
    );
    standIn.cancellationsPending = true;
    expect(await pac.cancel(another.providerInvoiceId, "01", stamped.uuid)).toEqual({
      status: "pending",
    });
    const last = standIn.requests.filter((request) => request.method === "DELETE").at(-1)!;
    expect(last.query.get("substitution")).toBe(stamped.uuid);
  });
});
