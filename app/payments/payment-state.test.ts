import { describe, expect, it } from "vitest";
import { paymentState } from "./payment-state";

const voucher = { reference: "9301 2345 6789" };

describe("what a customer is told about a payment", () => {
  it("paid: green, no instructions even if the payment kept some", () => {
    expect(paymentState("paid", { status: "approved", instructions: voucher })).toMatchObject({
      paid: true,
      declined: false,
      instructions: null,
      statusKey: "paid",
      statusTone: "text-primary-dark",
    });
  });

  it("pending with a voucher: its instructions, the neutral colour", () => {
    expect(
      paymentState("pending_payment", { status: "pending", instructions: voucher }),
    ).toMatchObject({
      pending: true,
      declined: false,
      instructions: voucher,
      statusKey: "pending_payment",
      statusTone: "text-slate-900",
    });
  });

  it("a declined card on something still payable: 'declined', red", () => {
    expect(
      paymentState("pending_payment", { status: "declined", instructions: null }),
    ).toMatchObject({
      pending: true,
      declined: true,
      statusKey: "declined",
      statusTone: "text-error",
    });
  });

  it("cancelled (an expired voucher): red, nothing to pay", () => {
    expect(paymentState("cancelled", { status: "expired", instructions: voucher })).toMatchObject({
      cancelled: true,
      pending: false,
      declined: false,
      instructions: null,
      statusKey: "cancelled",
      statusTone: "text-error",
    });
  });

  it("no payment yet: pending, nothing declined", () => {
    expect(paymentState("pending_payment", null)).toMatchObject({
      pending: true,
      declined: false,
      instructions: null,
    });
  });
});
