import { describe, expect, it } from "vitest";
import { SAMPLE } from "../../tests/support/cfdi-sample";
import { buildCfdi, type CfdiRequest } from "./cfdi";
import { isInvoiceRefused } from "./provider";
import { createSandboxPac, SANDBOX_TEST_RFCS, sandboxUuid } from "./sandbox-pac.server";

const pac = createSandboxPac(() => new Date("2026-11-27T18:00:00Z"));
const stamp = (receiver: Partial<CfdiRequest["receiver"]>) => {
  const cfdi = buildCfdi({ ...SAMPLE, receiver: { ...SAMPLE.receiver, ...receiver } });
  return pac.stamp({ cfdi, items: SAMPLE.items, idempotencyKey: "inv-1", resuming: false });
};
const refusalOf = async (receiver: Partial<CfdiRequest["receiver"]>) => {
  try {
    await stamp(receiver);
  } catch (error) {
    if (isInvoiceRefused(error)) return error.refusal;
    throw error;
  }
  return null;
};

describe("the invoicing sandbox", () => {
  it("stamps nothing: its own UUID, no seal, and the same invoice for the same key", async () => {
    const stamped = await stamp({});
    expect(stamped).toMatchObject({
      provider: "sandbox",
      uuid: sandboxUuid("inv-1"),
      total: "498.00",
      stamp: { sandbox: true, selloCfd: "", selloSat: "", stampedAt: "2026-11-27T18:00:00.000Z" },
    });
    expect(stamped.uuid).toMatch(
      /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/,
    );
    expect((await stamp({})).uuid).toBe(stamped.uuid);
    expect(sandboxUuid("inv-2")).not.toBe(stamped.uuid);
    expect(stamped.xml).toContain("SIN VALIDEZ FISCAL");
  });

  it("refuses by rules a tester can follow, each next to its field", async () => {
    for (const rfc of SANDBOX_TEST_RFCS.notFound) {
      expect(
        await refusalOf({ rfc, name: "Nadie", regimen: rfc.length === 12 ? "601" : "612" }),
      ).toMatchObject({
        reason: "tax_id_not_found",
        field: "rfc",
      });
    }
    expect(
      await refusalOf({ rfc: SANDBOX_TEST_RFCS.salariedOnly, name: "Quien Sea", regimen: "612" }),
    ).toMatchObject({ reason: "tax_system_not_allowed_for_tax_id", field: "regimen" });
    expect(
      await refusalOf({
        rfc: SANDBOX_TEST_RFCS.salariedOnly,
        name: "Quien Sea",
        regimen: "605",
        uso: "D01",
      }),
    ).toBeNull();
    // CACX…: the initials of "Xochilt Casas Chavez" (surnames first or last); not of another name.
    expect(await refusalOf({ name: "Beatriz Ruiz Soto" })).toMatchObject({
      reason: "legal_name_mismatch",
      field: "nombre",
    });
    expect(await refusalOf({ name: "CASAS CHAVEZ XOCHILT" })).toBeNull();
    expect(await refusalOf({ postalCode: "00123" })).toMatchObject({
      reason: "tax_address_zip_mismatch",
      field: "codigo_postal",
    });
    // A persona moral's name is not compared.
    expect(
      await refusalOf({ rfc: "EKU9003173C9", name: "Cualquier Nombre", regimen: "601" }),
    ).toBeNull();
  });

  it("cancels at once", async () => {
    expect(await pac.cancel("sandbox_x", "03", null)).toEqual({ status: "accepted" });
  });
});
