import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOOLTIP_TRIGGER_ATTRIBUTE, createTooltipLoading } from "./tooltip-loading";
import type { TooltipModule } from "./tooltip-radix";

const tooltipModule = { TooltipOn: () => null } as unknown as TooltipModule;

/** A page as the loader sees it: its listeners, its hover, its focused element. */
function fakePage({ hovers = true } = {}) {
  const listeners = new Map<string, Array<() => void>>();
  let focused: { closest: (selector: string) => unknown } | null = null;
  const page = {
    matchMedia: (query: string) => ({ matches: query === "(hover: hover)" && hovers }),
    addEventListener: (type: string, listener: () => void) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    setTimeout: (task: () => void, ms: number) => setTimeout(task, ms),
    requestIdleCallback: (task: () => void) => setTimeout(task, 50),
    document: {
      get activeElement() {
        return focused;
      },
    },
  };
  return {
    page: page as unknown as Parameters<ReturnType<typeof createTooltipLoading>["request"]>[0],
    fire: (type: string) => listeners.get(type)?.forEach((listener) => listener()),
    focus: (onTrigger: boolean) =>
      (focused = {
        closest: (selector: string) =>
          onTrigger && selector === `[${TOOLTIP_TRIGGER_ATTRIBUTE}]` ? {} : null,
      }),
  };
}

describe("loading the tooltips", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("on a device that hovers, loads them once the page is idle, once", async () => {
    const load = vi.fn(async () => tooltipModule);
    const loading = createTooltipLoading(load);
    const { page } = fakePage();
    loading.request(page);
    loading.request(page);
    expect(loading.shown()).toBeNull();
    await vi.advanceTimersByTimeAsync(50);
    expect(load).toHaveBeenCalledTimes(1);
    expect(loading.shown()).toBe(tooltipModule);
  });

  it("never on a device without a pointer that hovers (a phone)", async () => {
    const load = vi.fn(async () => tooltipModule);
    const loading = createTooltipLoading(load);
    loading.request(fakePage({ hovers: false }).page);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(load).not.toHaveBeenCalled();
    expect(loading.shown()).toBeNull();
  });

  it("waits while a button is pressed, so the control under it is not redrawn mid-click", async () => {
    const loading = createTooltipLoading(async () => tooltipModule);
    const listener = vi.fn();
    loading.subscribe(listener);
    const { page, fire } = fakePage();
    loading.request(page);
    fire("pointerdown");
    await vi.advanceTimersByTimeAsync(50);
    expect(loading.shown()).toBeNull();
    fire("pointerup");
    await vi.advanceTimersByTimeAsync(0);
    expect(loading.shown()).toBe(tooltipModule);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("waits while a control with a tooltip has the focus, until the focus moves on", async () => {
    const loading = createTooltipLoading(async () => tooltipModule);
    const { page, fire, focus } = fakePage();
    loading.request(page);
    focus(true);
    await vi.advanceTimersByTimeAsync(50);
    expect(loading.shown()).toBeNull();
    focus(false);
    fire("focusout");
    await vi.advanceTimersByTimeAsync(0);
    expect(loading.shown()).toBe(tooltipModule);
  });

  it("leaves the controls as they are when the code cannot be loaded", async () => {
    const loading = createTooltipLoading(() => Promise.reject(new Error("offline")));
    loading.request(fakePage().page);
    await vi.advanceTimersByTimeAsync(50);
    expect(loading.shown()).toBeNull();
  });
});
