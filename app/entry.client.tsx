import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installSiteFetch } from "./lib/data-requests";
import { loadNamespace, loadedMessages } from "./i18n/browser-messages";
import { NAMESPACES, routeNamespaces } from "./i18n/i18n";
import { TranslationProvider, type TranslatorSource } from "./i18n/react";
import { createTranslator } from "./i18n/translate";

const translators = new Map<string, ReturnType<typeof createTranslator>>();

/**
 * A namespace not yet loaded suspends the component until its messages arrive (only possible
 * when a customer navigates before the background load below finishes).
 */
const browserTranslators: TranslatorSource = (namespace) => {
  if (!loadedMessages(namespace)) throw loadNamespace(namespace);
  let translate = translators.get(namespace);
  if (!translate) {
    translate = createTranslator(loadedMessages, namespace);
    translators.set(namespace, translate);
  }
  return translate;
};

async function hydrate() {
  // Before the first request of the page: the namespaces below, then every navigation's data.
  const buildVersion = window.__reactRouterManifest.version;
  installSiteFetch(window, buildVersion);
  // The matched routes' namespaces before hydration, so the first render matches the server's.
  await Promise.all(
    ["common", ...routeNamespaces(window.__reactRouterRouteModules)].map(loadNamespace),
  );
  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationProvider source={browserTranslators}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </TranslationProvider>,
    );
  });
  // The rest in the background, so later navigations find their messages ready.
  for (const namespace of NAMESPACES) void loadNamespace(namespace).catch(() => undefined);
  // Watching for a deploy matters minutes from now, not for the first tap: out of the first load.
  const whenIdle = window.requestIdleCallback ?? ((task: () => void) => window.setTimeout(task, 1));
  whenIdle(() => {
    void import("./lib/new-build").then(({ watchForNewBuild }) =>
      watchForNewBuild(window, buildVersion),
    );
  });
}

void hydrate();
