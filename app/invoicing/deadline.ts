import { addDaysToDate, mexicoCityDate, mexicoCityDayStart } from "~/lib/mexico-city-days";

/** INVOICE_MONTHS_AFTER_PAYMENT's default: the month after the payment's (the help centre says it). */
export const DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT = 1;

/**
 * How long a payment may be invoiced (issue 29): until the end of the month after the month it was
 * paid in, in Mexico City (INVOICE_MONTHS_AFTER_PAYMENT, 1 by default; 0: that month only). A
 * payment of 15 November may be invoiced until 31 December at 23:59:59.999, Mexico City time.
 */
export function invoicingDeadline(paidAt: string, monthsAfter: number): string {
  const [year, month] = mexicoCityDate(paidAt).split("-").map(Number);
  // The first day of the month after the last one open: the deadline is the instant it begins.
  const index = year * 12 + (month - 1) + monthsAfter + 1;
  const first = `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}-01`;
  return mexicoCityDayStart(first);
}

/** Whether a payment made at `paidAt` may still be invoiced at `now`. */
export function isInvoicingOpen(paidAt: string, monthsAfter: number, now: Date): boolean {
  return now.getTime() < Date.parse(invoicingDeadline(paidAt, monthsAfter));
}

/**
 * The last Mexico City day a payment may be invoiced on (YYYY-MM-DD), as customers are told it:
 * the deadline is the instant the next day begins, which read as "hasta el 1 de febrero … a las
 * 12:00 a.m." means 31 January (issue 48).
 */
export function invoicingLastDay(deadline: string): string {
  return addDaysToDate(mexicoCityDate(deadline), -1);
}
