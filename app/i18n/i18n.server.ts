import { createInstance } from "i18next";
import auth from "../../public/locales/es/auth.json";
import commerce from "../../public/locales/es/commerce.json";
import common from "../../public/locales/es/common.json";
import help from "../../public/locales/es/help.json";
import portability from "../../public/locales/es/portability.json";
import topup from "../../public/locales/es/topup.json";
import type { Namespace } from "./i18n";
import type { TranslatorSource } from "./react";
import type { TFunction } from "./translate";

/** Every namespace's messages, bundled into the server build. */
export const resources: Record<Namespace, Record<string, unknown>> = {
  common,
  portability,
  help,
  commerce,
  auth,
  topup,
};

/**
 * One i18next instance for the whole process. The language never changes (Spanish only), so it
 * is safe to share between requests; one instance per request cost about a third of the
 * throughput when measured.
 */
export const i18n = createInstance();
void i18n.init({
  lng: "es",
  fallbackLng: "es",
  supportedLngs: ["es"],
  defaultNS: "common",
  ns: Object.keys(resources),
  resources: { es: resources },
  interpolation: { escapeValue: false },
  initImmediate: false,
});

const fixedTs = new Map<string, TFunction>();

/** The translate function of a namespace, made once and reused by every request. */
export function getFixedT(namespace: Namespace = "common"): TFunction {
  let translate = fixedTs.get(namespace);
  if (!translate) {
    translate = i18n.getFixedT("es", namespace) as unknown as TFunction;
    fixedTs.set(namespace, translate);
  }
  return translate;
}

export const serverTranslators: TranslatorSource = (namespace) => getFixedT(namespace as Namespace);
