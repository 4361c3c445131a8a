/**
 * A tab left open across a deploy (decision 0108): it asks now and then which build the site
 * serves, and once that is not its own, it leaves its links and forms to the browser, so the next
 * page is a page load of the new build rather than the earlier build's code asking for chunks that
 * may be gone. A navigation before it knew is answered by the server (new-build.server.ts).
 */

/** Where the server says which build it serves (React Router's manifest version), never cached. */
export const BUILD_VERSION_PATH = "/build-version";

/**
 * How often an open, visible tab asks (the spec leaves the build polling interval open); it also
 * asks whenever the tab becomes visible again.
 */
export const BUILD_CHECK_INTERVAL_MS = 5 * 60_000;

/** Whether an answer of `/build-version` names a build other than `ownVersion`. */
export function namesAnotherBuild(answer: unknown, ownVersion: string): boolean {
  if (typeof answer !== "object" || answer === null || !("version" in answer)) return false;
  const { version } = answer;
  return typeof version === "string" && version !== "" && version !== ownVersion;
}

/**
 * Whether a click would be a client navigation to a page of this site (a plain, unmodified primary
 * click on a link opened here), which the browser can make a page load instead.
 */
export function isSiteLinkClick(
  click: Pick<
    MouseEvent,
    "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey" | "defaultPrevented"
  >,
  link: { href: string; target: string; download: boolean } | null,
  origin: string,
): boolean {
  if (!link || click.defaultPrevented || click.button !== 0) return false;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return false;
  if (link.download || (link.target !== "" && link.target !== "_self")) return false;
  return new URL(link.href, origin).origin === origin;
}

/**
 * In the browser, before hydration: asks `/build-version` every BUILD_CHECK_INTERVAL_MS while the
 * tab is visible and each time it becomes visible; once another build is served, clicks on the
 * site's links and form submissions reach the browser's own handling only (React Router's listeners,
 * attached to the document, never see them), which loads the page, or sends the form, as without
 * JavaScript.
 */
export function watchForNewBuild(page: Window & typeof globalThis, ownVersion: string) {
  let anotherBuild = false;
  const check = async () => {
    if (anotherBuild || page.document.visibilityState !== "visible") return;
    try {
      const response = await page.fetch(BUILD_VERSION_PATH, { cache: "no-store" });
      if (response.ok && namesAnotherBuild(await response.json(), ownVersion)) anotherBuild = true;
    } catch {
      // Offline or restarting: the next check, or the server at the next navigation, tells.
    }
  };
  page.setInterval(() => void check(), BUILD_CHECK_INTERVAL_MS);
  page.document.addEventListener("visibilitychange", () => void check());

  page.addEventListener(
    "click",
    (event) => {
      if (!anotherBuild || !(event.target instanceof page.Element)) return;
      const anchor = event.target.closest("a[href]");
      const link =
        anchor instanceof page.HTMLAnchorElement
          ? { href: anchor.href, target: anchor.target, download: anchor.hasAttribute("download") }
          : null;
      if (isSiteLinkClick(event, link, page.location.origin)) event.stopPropagation();
    },
    { capture: true },
  );
  page.addEventListener(
    "submit",
    (event) => {
      if (anotherBuild) event.stopPropagation();
    },
    { capture: true },
  );
}
