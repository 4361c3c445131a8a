import commerce from "../../public/locales/es/commerce.json";
import common from "../../public/locales/es/common.json";
import mail from "../../public/locales/es/mail.json";
import portability from "../../public/locales/es/portability.json";
import topup from "../../public/locales/es/topup.json";
import {
  createTranslator,
  type Messages,
  spanishPluralCategory,
  type TranslationValues,
} from "~/i18n/translate";

/**
 * The e-mails' own texts (public/locales/es/mail.json) and the pages' texts they share wording
 * with, read by the storefront's translator (app/i18n/translate.ts). The "mail" namespace is
 * not among the browser's NAMESPACES: no page shows it, so no browser should download it.
 */
export const mailMessages: Readonly<Record<string, Messages>> = {
  mail,
  commerce,
  common,
  portability,
  topup,
};

const translate = createTranslator((namespace) => mailMessages[namespace], "mail");

function lookup(namespace: string, path: string): unknown {
  let node: unknown = mailMessages[namespace];
  for (const part of path.split(".")) {
    if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Whether the key names a message (with its plural forms when a count is given). */
export function hasMailText(key: string, values?: TranslationValues): boolean {
  const colon = key.indexOf(":");
  const namespace = colon > 0 ? key.slice(0, colon) : "mail";
  const path = colon > 0 ? key.slice(colon + 1) : key;
  if (typeof lookup(namespace, path) === "string") return true;
  if (typeof values?.count !== "number") return false;
  const plural = spanishPluralCategory(values.count);
  return (
    typeof lookup(namespace, `${path}_${plural}`) === "string" ||
    typeof lookup(namespace, `${path}_other`) === "string"
  );
}

/**
 * A text of an e-mail. Unlike a page, which shows the key of a missing message, an e-mail is
 * not sent with one: the mailer retries it, and the unit tests render every template.
 */
export function mailT(key: string, values?: TranslationValues): string {
  if (!hasMailText(key, values)) throw new Error(`No e-mail text "${key}"`);
  return translate(key, values);
}
