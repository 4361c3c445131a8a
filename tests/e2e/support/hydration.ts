import type { Page } from "@playwright/test";

/**
 * Opens `path` and waits until React has hydrated it. A journey about what only JavaScript does (a
 * toast, a message when a field is left) must not act before: on a loaded machine a click can
 * land first, and the form is then sent without JavaScript, as it should be, but the behaviour
 * under test never runs.
 *
 * React reports every commit to the developer tools' hook when one is present: the page gets a
 * minimal hook before its scripts run, and the first commit is the hydration's.
 */
export async function gotoHydrated(page: Page, path: string) {
  if (!watched.has(page)) {
    watched.add(page);
    await page.addInitScript(() => {
      const flags = window as unknown as { __hydratedForTests?: boolean };
      (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        isDisabled: false,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => undefined,
        onScheduleFiberRoot: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => undefined,
        onCommitFiberRoot: () => {
          flags.__hydratedForTests = true;
        },
      };
    });
  }
  await page.goto(path);
  await page.waitForFunction(
    () => (window as unknown as { __hydratedForTests?: boolean }).__hydratedForTests === true,
  );
}

const watched = new WeakSet<Page>();
