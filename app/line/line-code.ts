/** An SMS code that proves a number (./line-codes.server.ts): six digits, good for 10 minutes. */
export const LINE_CODE_PATTERN = /^\d{6}$/;
export const LINE_CODE_LIFETIME_MS = 10 * 60 * 1000;
/** Tries of one code, right or wrong; then a new code must be asked for. */
export const LINE_CODE_MAX_ATTEMPTS = 5;
