import { describe, expect, it } from "vitest";
import { isWellFormedIccid, parseActivationCode } from "./provisioning";
import {
  createSandboxProvisioner,
  SANDBOX_ICCID_PREFIX,
  SANDBOX_SMDP_ADDRESS,
} from "./sandbox-provisioner.server";

const secret = "unit-test-secret-that-is-long-enough-0123456789";
const sandbox = createSandboxProvisioner({ secret });

describe("sandbox eSIM provisioner", () => {
  it("issues a well-formed activation marked as a test code", async () => {
    const activation = await sandbox.issue({
      orderRef: "CM-2026-000123",
      position: 0,
      generation: 0,
    });
    expect(activation.testCode).toBe(true);
    expect(activation.smdpAddress).toBe(SANDBOX_SMDP_ADDRESS);
    expect(activation.matchingId).toMatch(/^[0-9A-F]{32}$/);
    expect(activation.activationCode).toBe(
      `LPA:1$${SANDBOX_SMDP_ADDRESS}$${activation.matchingId}`,
    );
    expect(parseActivationCode(activation.activationCode)).toEqual({
      smdpAddress: activation.smdpAddress,
      matchingId: activation.matchingId,
      smdpOid: null,
      confirmationCodeRequired: false,
    });
    expect(activation.iccid).toHaveLength(20);
    expect(activation.iccid.startsWith(SANDBOX_ICCID_PREFIX)).toBe(true);
    expect(activation.iccid.startsWith("8952")).toBe(true);
    expect(isWellFormedIccid(activation.iccid)).toBe(true);
  });

  it("names an SM-DP+ under the reserved .invalid domain, which never resolves", () => {
    expect(SANDBOX_SMDP_ADDRESS.endsWith(".invalid")).toBe(true);
  });

  it("answers the same for the same eSIM, also from another instance with the same secret", async () => {
    const request = { orderRef: "CM-2026-000123", position: 1, generation: 0 };
    const first = await sandbox.issue(request);
    const again = await sandbox.issue({ ...request });
    const otherServer = await createSandboxProvisioner({ secret }).issue(request);
    const concurrent = await Promise.all([1, 2, 3].map(() => sandbox.issue(request)));
    expect(again).toEqual(first);
    expect(otherServer).toEqual(first);
    for (const answer of concurrent) expect(answer).toEqual(first);
  });

  it("issues a different eSIM per position and per order", async () => {
    const activations = await Promise.all(
      ["CM-1", "CM-2", "CM-12", "CM-123"].flatMap((orderRef) =>
        [0, 1, 2, 3, 23].map((position) => sandbox.issue({ orderRef, position, generation: 0 })),
      ),
    );
    expect(new Set(activations.map((a) => a.matchingId)).size).toBe(activations.length);
    expect(new Set(activations.map((a) => a.iccid)).size).toBe(activations.length);
  });

  it("issues a new code for the same eSIM under a new generation, the first as before", async () => {
    const request = { orderRef: "CM-2026-000123", position: 0 };
    const first = await sandbox.issue({ ...request, generation: 0 });
    const second = await sandbox.issue({ ...request, generation: 1 });
    expect(second.activationCode).not.toBe(first.activationCode);
    expect(second.iccid).not.toBe(first.iccid);
    expect(await sandbox.issue({ ...request, generation: 1 })).toEqual(second);
    expect(await sandbox.cancel({ ...request, generation: 0, iccid: first.iccid })).toBe(
      "cancelled",
    );
  });

  it("keeps the order reference and position apart", async () => {
    const a = await sandbox.issue({ orderRef: "A1", position: 23, generation: 0 });
    const b = await sandbox.issue({ orderRef: "A12", position: 3, generation: 0 });
    expect(a.matchingId).not.toBe(b.matchingId);
  });

  it("depends on the secret", async () => {
    const other = createSandboxProvisioner({ secret: `${secret}-other` });
    const request = { orderRef: "CM-1", position: 0, generation: 0 };
    expect((await other.issue(request)).matchingId).not.toBe(
      (await sandbox.issue(request)).matchingId,
    );
  });

  it("stays well-formed over many orders", async () => {
    for (let index = 0; index < 500; index++) {
      const activation = await sandbox.issue({
        orderRef: `order-${index}`,
        position: index % 4,
        generation: 0,
      });
      expect(parseActivationCode(activation.activationCode)).not.toBeNull();
      expect(isWellFormedIccid(activation.iccid)).toBe(true);
    }
  });

  it("refuses a short secret and malformed requests", async () => {
    expect(() => createSandboxProvisioner({ secret: "short" })).toThrow(TypeError);
    await expect(sandbox.issue({ orderRef: "", position: 0, generation: 0 })).rejects.toThrow(
      TypeError,
    );
    await expect(sandbox.issue({ orderRef: "CM-1", position: -1, generation: 0 })).rejects.toThrow(
      TypeError,
    );
  });
});
