import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTooltipDelays } from "./tooltip-delays";

describe("the tooltips' delays (spec §9)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("waits 700 ms before the first tooltip opens", () => {
    expect(createTooltipDelays().delay()).toBe(700);
  });

  it("opens the next one at once while one is open, and for 300 ms after it closed", () => {
    const delays = createTooltipDelays();
    delays.opened();
    expect(delays.delay()).toBe(0);
    delays.closed();
    vi.advanceTimersByTime(299);
    expect(delays.delay()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(delays.delay()).toBe(700);
  });

  it("starts the 300 ms when the last open one closes", () => {
    const delays = createTooltipDelays();
    delays.opened();
    delays.opened();
    delays.closed();
    vi.advanceTimersByTime(1_000);
    expect(delays.delay()).toBe(0);
    delays.closed();
    vi.advanceTimersByTime(300);
    expect(delays.delay()).toBe(700);
  });

  it("tells the tooltips when the delay changes", () => {
    const delays = createTooltipDelays();
    const listener = vi.fn();
    const unsubscribe = delays.subscribe(listener);
    delays.opened();
    delays.closed();
    vi.advanceTimersByTime(300);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    delays.opened();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
