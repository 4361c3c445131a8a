import {
  DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT,
  invoicingDeadline,
  invoicingLastDay,
} from "~/invoicing/deadline";
import { formatDay } from "~/lib/dates";
import { RUNNING_OUT } from "~/line/line";
import { countText } from "./facts";

/*
 * What the help centre says the product does, built from the code that does it (issue 48): when
 * the running-out e-mail goes (~/line/line.ts RUNNING_OUT, the only alert the store sends), and
 * how long a purchase may be invoiced (~/invoicing/deadline.ts). claims.test.ts fails on an
 * article that states these otherwise, or promises an alert nothing sends.
 */

/** "el 10 %": the share of the data left at which the running-out e-mail goes. */
export const RUNNING_OUT_DATA_TEXT = `el ${Math.round(RUNNING_OUT.dataShare * 100)} %`;

/** "2 días": how long before the vigencia ends the running-out e-mail goes. */
export const RUNNING_OUT_DAYS_TEXT = countText(RUNNING_OUT.daysLeft, "día", "días");

/** The alert the store really sends, as a sentence. */
export const RUNNING_OUT_ALERT_TEXT = `Si agregaste tu línea a tu cuenta, te avisamos por correo cuando te queda ${RUNNING_OUT_DATA_TEXT} de tus datos o faltan ${RUNNING_OUT_DAYS_TEXT} para que venza tu plan, una vez por paquete.`;

/** A payment day of the example: mid-month, far from any month's end. */
const EXAMPLE_PAYMENT_DAY = "2026-11-15";

/** "hasta el último día del mes siguiente al de tu pago", for the rule's months. */
export function invoicingWindowText(monthsAfter = DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT): string {
  if (monthsAfter === 0) return "hasta el último día del mes en que la pagaste";
  if (monthsAfter === 1) return "hasta el último día del mes siguiente al de tu pago";
  return `hasta el último día del ${countText(monthsAfter, "mes", "meses")} después del mes de tu pago`;
}

/** "15 de noviembre": a day of the example, without its year (the year is not the point). */
const dayAndMonth = (day: string) => formatDay(day).replace(/ de \d{4}$/, "");

/** The rule's example, computed by the rule: "una compra pagada el 15 de noviembre la puedes facturar hasta el 31 de diciembre". */
export function invoicingExampleText(monthsAfter = DEFAULT_INVOICE_MONTHS_AFTER_PAYMENT): string {
  const lastDay = invoicingLastDay(
    invoicingDeadline(`${EXAMPLE_PAYMENT_DAY}T12:00:00-06:00`, monthsAfter),
  );
  return `una compra pagada el ${dayAndMonth(EXAMPLE_PAYMENT_DAY)} la puedes facturar hasta el ${dayAndMonth(lastDay)}`;
}
