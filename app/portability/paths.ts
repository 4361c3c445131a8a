/** Where a customer asks to bring their number (portabilidad). */
export const PORTABILITY_PATH = "/portabilidad";
