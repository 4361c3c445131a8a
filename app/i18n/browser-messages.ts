import { LOCALES_PATH } from "./i18n";
import type { Messages } from "./translate";

/**
 * The messages the browser holds, by namespace. A namespace is fetched once (the server caches
 * the files for 24 hours) and never again while the page lives.
 */
const loaded = new Map<string, Messages>();
const pending = new Map<string, Promise<void>>();

export function loadedMessages(namespace: string): Messages | undefined {
  return loaded.get(namespace);
}

export function loadNamespace(namespace: string): Promise<void> {
  if (loaded.has(namespace)) return Promise.resolve();
  let request = pending.get(namespace);
  if (!request) {
    const url = LOCALES_PATH.replace("{{lng}}", "es").replace("{{ns}}", namespace);
    request = fetch(url)
      .then((response) => {
        if (!response.ok)
          throw new Error(`No se pudieron cargar los textos en español (${namespace})`);
        return response.json() as Promise<Messages>;
      })
      .then((messages) => void loaded.set(namespace, messages))
      .finally(() => pending.delete(namespace));
    pending.set(namespace, request);
  }
  return request;
}
