import { describe, expect, it, vi } from "vitest";
import { payFor, type Payable } from "./pay-for.server";
import type { BeginPaymentResult } from "./payments.server";
import { PaymentProviderUnavailable } from "./provider";
import type { RequestContext } from "~/context";

const payable: Payable = {
  purpose: "order",
  reference: "order-ref",
  amount: 299,
  description: "Pedido PED-2026-000001",
  path: "/confirmation?pedido=order-ref",
  customerEmail: "ana@example.mx",
  awaitingPayment: true,
};

function contextBeginning(begin: () => Promise<BeginPaymentResult>) {
  const flash = vi.fn();
  const context = {
    config: { publicOrigin: "https://tienda.test" },
    payments: { begin: vi.fn(begin) },
    jar: { set: flash, get: () => null },
    cookies: { flash: "flash", sandboxPayer: "sandboxPayer" },
  } as unknown as RequestContext;
  return { context, flash };
}

const payment = { provider: "fake", provider_reference: null } as never;
const byCard = { method: "card", savedCardId: null, saveCard: false } as const;

describe("paying for an order or a top-up", () => {
  it("sends the customer to the provider's page, coming back to the thing's own page", async () => {
    const { context } = contextBeginning(async () => ({
      kind: "redirect",
      url: "https://pagos.test/pay_1",
      payment,
    }));
    const answer = await payFor(context, payable, byCard);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("https://pagos.test/pay_1");
    expect(context.payments.begin).toHaveBeenCalledWith(
      expect.objectContaining({
        purpose: "order",
        reference: "order-ref",
        amount: 299,
        method: "card",
        returnUrl: "https://tienda.test/confirmation?pedido=order-ref",
        origin: "https://tienda.test",
      }),
    );
  });

  it("shows a voucher or a transfer on the thing's own page", async () => {
    const { context } = contextBeginning(async () => ({ kind: "instructions", payment }));
    const answer = await payFor(context, payable, { ...byCard, method: "cash" });
    expect(answer.headers.get("Location")).toBe(payable.path);
  });

  it("opens no payment for what no longer waits for one: its page only", async () => {
    const { context } = contextBeginning(async () => {
      throw new Error("not called");
    });
    const answer = await payFor(context, { ...payable, awaitingPayment: false }, byCard);
    expect(answer.headers.get("Location")).toBe(payable.path);
    expect(context.payments.begin).not.toHaveBeenCalled();
  });

  it("with the provider out of reach, leaves it pending and says so in Spanish on its page", async () => {
    const { context, flash } = contextBeginning(async () => {
      throw new PaymentProviderUnavailable("down");
    });
    const answer = await payFor(context, payable, byCard);
    expect(answer.headers.get("Location")).toBe(payable.path);
    expect(flash).toHaveBeenCalledWith("flash", {
      kind: "error",
      key: "commerce:payment.unavailable",
    });
  });

  it("lets any other failure reach the error boundary", async () => {
    const { context } = contextBeginning(async () => {
      throw new TypeError("bug");
    });
    await expect(payFor(context, payable, byCard)).rejects.toThrow("bug");
  });
});
