import { luhnCheckDigit } from "../../app/lib/luhn";

/**
 * A well-formed ICCID for tests (89 52 …, 19 digits, Luhn check digit last), one per `serial`:
 * what the operator reads off a SIM card before shipping it.
 */
export function testIccid(serial: number): string {
  const body = `895201${String(serial).padStart(12, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** The same with its last digit changed: fails the Luhn check. */
export function misprintedIccid(serial: number): string {
  const iccid = testIccid(serial);
  const last = Number(iccid.at(-1));
  return `${iccid.slice(0, -1)}${(last + 1) % 10}`;
}
