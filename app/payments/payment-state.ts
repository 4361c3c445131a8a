/**
 * What a customer is told about something they pay for (an order or a top-up): the same rules on
 * the order confirmation and the top-up receipt.
 */
export type PayableStatus = "pending_payment" | "paid" | "cancelled";

export interface PaymentState<Instructions> {
  paid: boolean;
  cancelled: boolean;
  pending: boolean;
  /** Still payable, and the last attempt was refused (a card declined). */
  declined: boolean;
  /** A voucher or transfer waiting to be paid: how to pay it. */
  instructions: Instructions | null;
  /** The status word's key: the record's status, or "declined". */
  statusKey: PayableStatus | "declined";
  /** The status word's colour: green when paid, red when refused or cancelled. */
  statusTone: "text-primary-dark" | "text-error" | "text-slate-900";
}

export function paymentState<Instructions>(
  status: PayableStatus,
  payment: { status: string; instructions: Instructions | null } | null,
): PaymentState<Instructions> {
  const paid = status === "paid";
  const cancelled = status === "cancelled";
  const pending = status === "pending_payment";
  const declined = pending && payment?.status === "declined";
  return {
    paid,
    cancelled,
    pending,
    declined,
    instructions: pending ? (payment?.instructions ?? null) : null,
    statusKey: declined ? "declined" : status,
    statusTone: paid
      ? "text-primary-dark"
      : declined || cancelled
        ? "text-error"
        : "text-slate-900",
  };
}
