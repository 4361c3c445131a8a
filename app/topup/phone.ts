/** Removes what customers type around the ten digits: spaces, dashes, dots, parentheses. */
export function normalisePhoneNumber(value: string): string {
  return value.replace(/[\s().-]/g, "");
}

/** "55 •••• 5678": enough for the customer to recognise the line, not enough to read it out. */
export function maskPhoneNumber(phoneNumber: string): string {
  if (!/^\d{10}$/.test(phoneNumber)) return "••••";
  return `${phoneNumber.slice(0, 2)} •••• ${phoneNumber.slice(6)}`;
}
