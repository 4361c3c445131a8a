import activation from "../../public/locales/es/activation.json";
import auth from "../../public/locales/es/auth.json";
import commerce from "../../public/locales/es/commerce.json";
import common from "../../public/locales/es/common.json";
import help from "../../public/locales/es/help.json";
import portability from "../../public/locales/es/portability.json";
import line from "../../public/locales/es/line.json";
import topup from "../../public/locales/es/topup.json";
import registration from "../../public/locales/es/registration.json";
import invoicing from "../../public/locales/es/invoicing.json";
import type { Namespace } from "./i18n";
import type { TranslatorSource } from "./react";
import { createTranslator, type Messages, type TFunction } from "./translate";

/** Every namespace's messages, bundled into the server build. */
export const resources: Record<Namespace, Messages> = {
  common,
  portability,
  help,
  commerce,
  auth,
  topup,
  line,
  activation,
  registration,
  invoicing,
};

const messagesOf = (namespace: string): Messages | undefined =>
  (resources as Record<string, Messages>)[namespace];

const fixedTs = new Map<string, TFunction>();

/**
 * The translate function of a namespace, made once for the process and shared by every request
 * (the language never changes: Spanish only). It is the same translator the browser uses, so the
 * server's text and the hydrated text cannot differ.
 */
export function getFixedT(namespace: Namespace = "common"): TFunction {
  let translate = fixedTs.get(namespace);
  if (!translate) {
    translate = createTranslator(messagesOf, namespace);
    fixedTs.set(namespace, translate);
  }
  return translate;
}

export const serverTranslators: TranslatorSource = (namespace) => getFixedT(namespace as Namespace);
