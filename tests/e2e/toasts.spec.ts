import { expect, test, type Locator, type Page } from "@playwright/test";
import { addPlan, planCard } from "./support/commerce";
import { gotoHydrated } from "./support/hydration";

// Issue 34, the spec's toast rows (§9, decision 0109): with JavaScript, a message that arrives
// without a page load is a toast at the bottom right with a bar of the time it has left, a close
// button and its action; toasts stack and spread out on hover, stop while hovered, five at most.
// Without JavaScript the same message is in the page, with its action.

const PLANS = [
  "Conecta 50",
  "Conecta 100",
  "Conecta 150",
  "Conecta 200",
  "Conecta 300",
  "Conecta 500",
];
const toastRegion = (page: Page) => page.getByTestId("toasts");
const toasts = (page: Page) => toastRegion(page).getByTestId("flash");
const addedMessage = (plan: string) => `Agregaste ${plan} a tu carrito.`;

/** The page's clock, stopped: timers fire only when the test moves it. */
async function stopClock(page: Page) {
  // Ten seconds ahead: a loaded machine may take more than one between the two calls.
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 10_000);
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "toasts need JavaScript");

  test("a plan added from its card: a toast at the bottom right with its message, the time left, a close button and «Ver carrito»", async ({
    page,
  }) => {
    // The page's timers wait for the test: a slow machine must not see the toast close by itself.
    await page.clock.install();
    await gotoHydrated(page, "/plans");
    await stopClock(page);
    await addPlan(page, "Conecta 200", 1);
    const toast = toasts(page);
    await expect(toast).toHaveCount(1);
    await expect(toast).toContainText(addedMessage("Conecta 200"));
    // The page itself shows no message: it did not load.
    await expect(page.locator("main").getByTestId("flash")).toHaveCount(0);

    const viewport = page.viewportSize()!;
    const region = await box(toastRegion(page));
    expect(viewport.width - (region.x + region.width)).toBeCloseTo(16, 0);
    expect(viewport.height - (region.y + region.height)).toBeCloseTo(16, 0);

    // Its width is the time left (a CSS animation, which the test's clock does not stop).
    const progress = toast.getByTestId("toast-progress");
    await expect(progress).toHaveCount(1);
    await expect
      .poll(() =>
        progress.evaluate((bar) => {
          const style = getComputedStyle(bar);
          return [style.animationName, style.animationDuration, style.animationPlayState];
        }),
      )
      .toEqual(["toast-progress", "5s", "running"]);
    await expect(toast.getByRole("button", { name: "Cerrar aviso" })).toBeVisible();

    await toast.getByRole("link", { name: "Ver carrito" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
  });

  test("a toast closes by itself after 5 seconds, not while the pointer rests on it; the close button closes it at once", async ({
    page,
  }) => {
    await page.clock.install();
    await gotoHydrated(page, "/plans");
    await stopClock(page);
    await addPlan(page, "Conecta 100", 1);
    const toast = toasts(page);
    await expect(toast).toHaveCount(1);
    await page.clock.runFor(4_000);
    await expect(toast).toHaveAttribute("data-state", "open");

    // The pointer on the toasts stops the time: ten seconds later it is still there.
    await toast.hover();
    const progress = toast.getByTestId("toast-progress");
    await expect(progress).toHaveAttribute("data-paused", "true");
    expect(await progress.evaluate((bar) => getComputedStyle(bar).animationPlayState)).toBe(
      "paused",
    );
    await page.clock.runFor(10_000);
    await expect(toast).toHaveAttribute("data-state", "open");

    // Away from it, the time left runs on: one second.
    await page.mouse.move(5, 5);
    await expect(progress).toHaveAttribute("data-paused", "false");
    await page.clock.runFor(999);
    await expect(toast).toHaveAttribute("data-state", "open");
    await page.clock.runFor(1);
    await page.clock.runFor(200);
    await expect(toasts(page)).toHaveCount(0);

    await addPlan(page, "Conecta 150", 2);
    await expect(toasts(page)).toHaveCount(1);
    await toasts(page).getByRole("button", { name: "Cerrar aviso" }).click();
    await page.clock.runFor(200);
    await expect(toasts(page)).toHaveCount(0);
  });

  test("a swipe to the right dismisses a toast past 50 px, not before", async ({ page }) => {
    await page.clock.install();
    await gotoHydrated(page, "/plans");
    await stopClock(page);
    await addPlan(page, "Conecta 200", 1);
    const toast = toasts(page);
    await expect(toast).toHaveCount(1);
    const swipe = async (distance: number) => {
      const start = await box(toast.getByText(addedMessage("Conecta 200")));
      await page.mouse.move(start.x + 10, start.y + start.height / 2);
      await page.mouse.down();
      await page.mouse.move(start.x + 10 + distance, start.y + start.height / 2, { steps: 8 });
      await page.mouse.up();
    };
    await swipe(40);
    await page.clock.runFor(200);
    await expect(toast).toHaveAttribute("data-state", "open");
    await swipe(80);
    await page.clock.runFor(200);
    await expect(toasts(page)).toHaveCount(0);
  });

  test("at most five toasts, stacked one behind the other and spread 16 px apart while hovered; F8 reaches them", async ({
    page,
  }) => {
    // Six plans added one after the other: longer than one journey.
    test.setTimeout(120_000);
    await page.clock.install();
    await gotoHydrated(page, "/plans");
    await stopClock(page);
    for (const [index, plan] of PLANS.entries()) {
      await addPlan(page, plan, index + 1);
      await expect(toasts(page).last()).toContainText(addedMessage(plan));
    }
    // The sixth made the first leave.
    await expect(toasts(page)).toHaveCount(5);
    await expect(toasts(page).first()).toContainText(addedMessage(PLANS[1]));

    // Stacked: each older toast sits behind the next one.
    await page.mouse.move(5, 5);
    await expect
      .poll(async () => {
        const [older, newer] = [await box(toasts(page).nth(3)), await box(toasts(page).nth(4))];
        return older.y + older.height > newer.y;
      })
      .toBe(true);

    // Hovered: one above the other, 16 px apart.
    await toasts(page).last().hover();
    await expect
      .poll(async () => {
        const gaps: number[] = [];
        for (let index = 0; index < 4; index++) {
          const [upper, lower] = [
            await box(toasts(page).nth(index)),
            await box(toasts(page).nth(index + 1)),
          ];
          gaps.push(Math.round(lower.y - (upper.y + upper.height)));
        }
        return gaps;
      })
      .toEqual([16, 16, 16, 16]);

    await page.mouse.move(5, 5);
    await page.keyboard.press("F8");
    await expect(
      page.getByRole("region", { name: "Notificaciones (F8)" }).locator("ol"),
    ).toBeFocused();
  });
});

test("without JavaScript the message a toast would carry is in the page, with its action", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "js-enabled", "with JavaScript it is a toast (above)");
  await page.goto("/plans");
  await planCard(page, "Conecta 300").getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(page).toHaveURL(/\/plans$/);
  const message = page.getByTestId("flash");
  await expect(message).toContainText(addedMessage("Conecta 300"));
  await message.getByRole("link", { name: "Ver carrito" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
});
