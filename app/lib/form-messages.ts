import type { TFunction } from "~/i18n/translate";

/**
 * A schema message is a translation key (`auth:validation.codeInvalid`), translated where it is
 * shown. One that needs values (the pool's minimum password length) carries them after `?`, as
 * a query string: `auth:validation.passwordMinLength?min=8`.
 */
export function formMessage(key: string, values: Record<string, string | number>): string {
  const query = new URLSearchParams(
    Object.entries(values).map(([name, value]) => [name, String(value)]),
  );
  return `${key}?${query}`;
}

/** A field's or form's message in Spanish: a key (with its values), or a finished sentence. */
export function translateFormMessage(t: TFunction, message: string): string {
  const at = message.indexOf("?");
  // Only a key carries values; a sentence ending in "?" is already a message.
  if (at <= 0 || /\s/.test(message.slice(0, at))) return t(message);
  return t(message.slice(0, at), Object.fromEntries(new URLSearchParams(message.slice(at + 1))));
}
