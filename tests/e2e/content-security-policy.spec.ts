import { expect, test, type Page } from "@playwright/test";
import { cartWith } from "./support/commerce";
import { createCustomer, signInTo } from "./support/customers";
import { gotoHydrated } from "./support/hydration";

/**
 * The Content Security Policy's styles (decision 0138): stylesheets from the site, a <style>
 * element only with the answer's nonce, and no inline style in the markup. The key pages, with
 * JavaScript on and off, render without one refusal; markup slipped into a page cannot restyle it.
 */

const PAGES = ["/", "/plans", "/cart", "/checkout", "/auth/sign-in", "/help-center"] as const;
const SIGNED_IN_PAGE = "/my-account/seguridad";

/** A directive's sources in a policy, or null when the policy does not name it. */
function directive(policy: string, name: string): string | null {
  const found = policy
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.split(/\s+/)[0] === name);
  return found ? found.slice(name.length).trim() : null;
}

/** Every refusal the browser reports while the page is open (console and, with JS, the event). */
function watchRefusals(page: Page, javaScriptEnabled: boolean) {
  const refusals: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (apply|load|execute)/i.test(text)) {
      refusals.push(`${new URL(page.url()).pathname}: ${text}`);
    }
  });
  if (javaScriptEnabled) {
    void page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(
          `Content Security Policy: ${event.effectiveDirective} refused ${event.blockedURI}`,
        );
      });
    });
  }
  return refusals;
}

async function expectStrictStyles(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/$" : `${path}$`}`));
  const policy = response!.headers()["content-security-policy"] ?? "";
  const styles = directive(policy, "style-src");
  const nonce = /'nonce-([^']+)'/.exec(directive(policy, "script-src") ?? "")?.[1];
  expect(styles, `${path}: style-src`).toBe(`'self' 'nonce-${nonce}'`);
  for (const name of ["style-src-elem", "style-src-attr"]) {
    expect(directive(policy, name) ?? "", `${path}: ${name}`).not.toContain("'unsafe-inline'");
  }
  // The site's stylesheet applied: the page is drawn with the brand's font, not the browser's.
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(font, path).not.toMatch(/^(serif|Times New Roman)$/i);
}

test("the key pages allow no inline style and render without one refusal", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  const refusals = watchRefusals(page, javaScriptEnabled);
  await cartWith(page, "Conecta 200");
  for (const path of PAGES) await expectStrictStyles(page, path);
  await signInTo(page, await createCustomer(request, "csp"), SIGNED_IN_PAGE);
  await expectStrictStyles(page, SIGNED_IN_PAGE);
  expect(refusals).toEqual([]);
});

test("a toast is drawn under the policy, and markup slipped into a page cannot restyle it", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "toasts and injected markup need JavaScript");
  const refusals = watchRefusals(page, javaScriptEnabled);
  await gotoHydrated(page, "/plans");
  // Adding a plan shows a toast, stacked and timed by the style React sets from JavaScript.
  await page
    .getByRole("article", { name: "Conecta 200", exact: true })
    .getByRole("button", { name: "Agregar al carrito" })
    .click();
  await expect(page.getByTestId("flash")).toBeVisible();
  await expect(page.getByTestId("toast-progress")).toHaveCSS(
    "animation-duration",
    /^\d+(\.\d+)?s$/,
  );
  expect(refusals).toEqual([]);

  const color = await page.evaluate(() => {
    document.body.insertAdjacentHTML(
      "beforeend",
      '<p id="injected" style="color: rgb(255, 0, 0)">x</p><style>#injected { background: red }</style>',
    );
    const injected = document.getElementById("injected")!;
    return {
      color: getComputedStyle(injected).color,
      background: getComputedStyle(injected).backgroundColor,
    };
  });
  expect(color.color).not.toBe("rgb(255, 0, 0)");
  expect(color.background).not.toBe("rgb(255, 0, 0)");
  await expect.poll(() => refusals.length).toBeGreaterThanOrEqual(2);
});
