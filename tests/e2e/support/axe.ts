import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/**
 * Fails the test on any accessibility violation axe finds on the current page.
 *
 * axe runs as a script, which a JavaScript-disabled page cannot execute. There the page's current
 * HTML (scripts removed, exactly what the customer without JavaScript sees) is checked in a
 * scripting page of its own, loading the same stylesheets from the same server.
 *
 * axe runs in the page itself (legacy mode): the same rules and results as the default, which opens
 * an extra blank page per check to merge results across frames, and our pages have no frames. It
 * halves the time of a check, about 1.3 s of a busy machine's CPU on every one of them. Every
 * rule runs, but only the violations are aggregated with their elements' selectors (axe's
 * `resultTypes`): the same violations, about a third less time a check (decision 0131).
 */
export async function expectNoAxeViolations(page: Page) {
  // A URL assertion passes once a navigation commits; the document may still be arriving.
  await page.waitForLoadState("load");
  const scriptsDisabled = test.info().project.use.javaScriptEnabled === false;
  if (!scriptsDisabled) {
    let results = await axe(page).analyze();
    if (results.violations.length > 0) {
      // A toast closing fades out over 200 ms, and its text read mid-fade fails the contrast rule
      // though no one reads it then: what holds once the page's animations end is the verdict.
      await settleAnimations(page);
      results = await axe(page).analyze();
    }
    expectClean(results);
    return;
  }
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<link[^>]+rel="modulepreload"[^>]*>/gi, "");
  const url = page.url();
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser to run axe in");
  const context = await browser.newContext({
    javaScriptEnabled: true,
    viewport: page.viewportSize(),
    locale: "es-MX",
  });
  try {
    const copy = await context.newPage();
    await copy.route(url, (route) =>
      route.fulfill({ body: html, contentType: "text/html; charset=utf-8" }),
    );
    await copy.goto(url);
    expectClean(await axe(copy).analyze());
  } finally {
    await context.close();
  }
}

/** Waits for the page's animations that end (a toast's fade, not a spinner), at most 6 s. */
async function settleAnimations(page: Page) {
  await page.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined));
    await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 6000))]);
  });
  // A toast whose countdown just ended starts its fade now.
  await page.waitForTimeout(250);
}

function axe(page: Page) {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
}

function expectClean(results: Awaited<ReturnType<AxeBuilder["analyze"]>>) {
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary, "axe violations").toEqual([]);
}
