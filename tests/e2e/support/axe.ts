import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/**
 * Fails the test on any accessibility violation axe finds on the current page.
 *
 * axe runs as a script, which a JavaScript-disabled page cannot execute. There the page's current
 * HTML (scripts removed, exactly what the customer without JavaScript sees) is checked in a
 * scripting page of its own, loading the same stylesheets from the same server.
 */
export async function expectNoAxeViolations(page: Page) {
  // A URL assertion passes once a navigation commits; the document may still be arriving.
  await page.waitForLoadState("load");
  const scriptsDisabled = test.info().project.use.javaScriptEnabled === false;
  if (!scriptsDisabled) {
    expectClean(await new AxeBuilder({ page }).analyze());
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
    expectClean(await new AxeBuilder({ page: copy }).analyze());
  } finally {
    await context.close();
  }
}

function expectClean(results: Awaited<ReturnType<AxeBuilder["analyze"]>>) {
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary, "axe violations").toEqual([]);
}
