import { expect, type Page } from "@playwright/test";

/** Issue 17's widths: a small phone, the common phone, a tablet. */
const WIDTHS = [320, 375, 768];

interface Fit {
  viewport: number;
  scrollWidth: number;
  overflowing: string[];
  smallButtons: string[];
}

/** What passes the right edge, and which visible submit buttons are smaller than 44 × 44 px. */
function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const viewport = window.innerWidth;
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${
        element.getAttribute("data-testid") ? `[${element.getAttribute("data-testid")}]` : ""
      } "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    /** Inside a box that scrolls or clips on its own (a table's wrapper), within the viewport. */
    const contained = (element: Element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (parent === document.body) return false;
        const style = getComputedStyle(parent);
        if (style.overflowX !== "visible" && parent.getBoundingClientRect().right <= viewport + 0.5)
          return true;
      }
      return false;
    };
    const overflowing: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.right > viewport + 0.5 && !contained(element)) {
        overflowing.push(`${describe(element)} right=${Math.round(rect.right)}`);
      }
    }
    const smallButtons: string[] = [];
    for (const button of document.querySelectorAll(
      'button:not([type="button"]):not([type="reset"]), input[type="submit"]',
    )) {
      const rect = button.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (getComputedStyle(button).visibility === "hidden") continue;
      if (rect.width < 44 || rect.height < 44) {
        smallButtons.push(
          `${describe(button)} ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        );
      }
    }
    return {
      viewport,
      scrollWidth: document.documentElement.scrollWidth,
      overflowing: overflowing.slice(0, 10),
      smallButtons,
    };
  });
}

/** The current page at every width: nothing sideways, every submit button big enough. */
export async function expectFitsEveryWidth(page: Page, what: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const fit = await measure(page);
    const where = `${what} at ${width} px`;
    expect(fit.overflowing, `${where}: elements past the right edge`).toEqual([]);
    expect(fit.scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(
      fit.viewport,
    );
    expect(fit.smallButtons, `${where}: submit buttons under 44 × 44 px`).toEqual([]);
  }
  await page.setViewportSize({ width: 375, height: 800 });
}
