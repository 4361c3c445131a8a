/**
 * What the store promises besides the plans themselves: what a SIM costs, how long it takes to
 * arrive or to work, how long a portability takes. The help centre, the checkout and the
 * confirmation read these values; a change of terms is an edit here and every page follows.
 * Plan prices and benefits live in plans.data.ts, top-up amounts in ~/topup/amounts.ts.
 */

export const SIM_TYPES = ["physical", "esim"] as const;
export type SimType = (typeof SIM_TYPES)[number];

export function isSimType(value: unknown): value is SimType {
  return typeof value === "string" && (SIM_TYPES as readonly string[]).includes(value);
}

/**
 * Both kinds of SIM come with the plan at no charge and shipping is free, so the plan's price is
 * the whole price (decision 0066). Charging for a SIM would mean a fee line in the order total.
 */
export const SIM_PRICE = 0;
export const SHIPPING_PRICE = 0;

/** Business days from payment to delivery of a physical SIM. */
export const PHYSICAL_SIM_DELIVERY = {
  /** Cities and metropolitan areas. */
  cities: { minDays: 2, maxDays: 5 },
  /** Small towns and rural areas. */
  elsewhere: { maxDays: 8 },
  /** Days without movement of the tracking number before we send another SIM at no cost. */
  stalledDays: 3,
} as const;

/** An eSIM is shown as a QR code on the confirmation as soon as the payment is approved. */
export const ESIM_DELIVERY = {
  /** The same QR code by e-mail, within this many minutes: promised once e-mails are sent. */
  emailWithinMinutes: 15,
} as const;

/** From the SIM inserted (or the eSIM installed) to a working line. */
export const LINE_ACTIVATION = { usualMinutes: 15, maxHours: 2 } as const;

/** The regulator's maximum from an accepted portability request to the number working here. */
export const PORTABILITY_MAX_HOURS = 24;

/** Calendar days a portability NIP from the 051 stays valid (set by the regulator). */
export const NIP_VALIDITY_DAYS = 5;

/**
 * Replacing a lost, stolen or damaged SIM keeps the number. It is not a purchase with a plan, so
 * decision 0066 (SIM_PRICE) does not cover it: the physical card is charged by a payment link
 * sent over WhatsApp, as registered in content/legal/tarifas.md; a new eSIM QR code costs nothing.
 * Shipping follows SHIPPING_PRICE.
 */
export const SIM_REPLACEMENT_PRICE: Readonly<Record<SimType, number>> = { physical: 50, esim: 0 };

/** After a plan expires, the line keeps its number (and its unused data) for this many months. */
export const NUMBER_KEPT_MONTHS = 12;

/** Days of SMS notice before a number left without top-ups for NUMBER_KEPT_MONTHS is released. */
export const NUMBER_RELEASE_NOTICE_DAYS = 30;

// No SMS alerts of data used or of a plan about to expire: nothing sends them (issue 48). The
// alert the store sends is the running-out e-mail, at ~/line/line.ts RUNNING_OUT.

/**
 * The fair-use thresholds of content/legal/politica-de-uso-justo.md: over `periodDays`, use above
 * any of them counts as beyond personal use. Past `socialGb` the unlimited social networks slow
 * to `socialThrottleKbps`.
 */
export const FAIR_USE = {
  periodDays: 30,
  minutes: 5000,
  sms: 5000,
  socialGb: 15,
  socialThrottleKbps: 512,
} as const;
