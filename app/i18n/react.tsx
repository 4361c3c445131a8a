import { createContext, useContext, type ReactNode } from "react";
import type { TFunction } from "./translate";

/** Gives the translate function of a namespace; the server and the browser each provide one. */
export type TranslatorSource = (namespace: string) => TFunction;

const TranslationContext = createContext<TranslatorSource | null>(null);

export function TranslationProvider({
  source,
  children,
}: {
  source: TranslatorSource;
  children: ReactNode;
}) {
  return <TranslationContext.Provider value={source}>{children}</TranslationContext.Provider>;
}

/** `const { t } = useTranslation("cart")`; keys may name another namespace as `"common:key"`. */
export function useTranslation(namespace = "common"): { t: TFunction } {
  const source = useContext(TranslationContext);
  if (!source) throw new Error("useTranslation needs a TranslationProvider");
  return { t: source(namespace) };
}
