import type { HeadersFunction } from "react-router";

/**
 * React Router sends an action's own headers with a page only through the route's `headers` export: the
 * forms pass on `Retry-After` (limits, a busy database), so a refused customer's browser (and any client) learns when
 * to try again.
 */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
