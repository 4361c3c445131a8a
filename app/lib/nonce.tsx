import { createContext, useContext } from "react";

/** The per-request CSP nonce; the server provides it, the browser never needs it. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
