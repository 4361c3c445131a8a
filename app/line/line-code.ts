/** An SMS code that proves a number (./line-codes.server.ts): six digits, good for 10 minutes. */
export const LINE_CODE_PATTERN = /^\d{6}$/;
export const LINE_CODE_LIFETIME_MS = 10 * 60 * 1000;
/**
 * How long a code's row is kept after it expired (used or not): well past anything that reads it
 * (a code's tries, the form sent again, the 15 minutes /saldo shows a proved number).
 */
export const LINE_CODE_KEPT_MS = 24 * 60 * 60 * 1000;
/** Tries of one code, right or wrong; then a new code must be asked for. */
export const LINE_CODE_MAX_ATTEMPTS = 5;
