import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { vi } from "vitest";
import { TOAST_SETTINGS, createToastQueue, type QueuedToast } from "./toast-queue";

type Message = { id: string };

function queueWatched() {
  let shown: ReadonlyArray<QueuedToast<Message>> = [];
  const queue = createToastQueue<Message>((toasts) => (shown = toasts));
  return {
    queue,
    ids: () => shown.map((entry) => entry.toast.id),
    open: () => shown.filter((entry) => entry.open).map((entry) => entry.toast.id),
  };
}

describe("the toast stack (spec §9)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("has the spec's settings", () => {
    expect(TOAST_SETTINGS).toMatchObject({
      durationMs: 5000,
      maxVisible: 5,
      removeAfterCloseMs: 200,
      swipeThresholdPx: 50,
      swipeDirection: "right",
      hotkey: ["F8"],
    });
  });

  it("shows five at most: a sixth message makes the oldest leave", () => {
    const { queue, ids } = queueWatched();
    for (const id of ["a", "b", "c", "d", "e"]) queue.add({ id });
    expect(ids()).toEqual(["a", "b", "c", "d", "e"]);
    queue.add({ id: "f" });
    expect(ids()).toEqual(["b", "c", "d", "e", "f"]);
  });

  it("shows a message once, however often the page hands it over", () => {
    const { queue, ids } = queueWatched();
    queue.add({ id: "a" });
    queue.add({ id: "a" });
    expect(ids()).toEqual(["a"]);
  });

  it("removes a closed toast 200 ms after it closed, not before", () => {
    const { queue, ids, open } = queueWatched();
    queue.add({ id: "a" });
    queue.add({ id: "b" });
    queue.close("a");
    expect(open()).toEqual(["b"]);
    expect(ids()).toEqual(["a", "b"]);
    vi.advanceTimersByTime(199);
    expect(ids()).toEqual(["a", "b"]);
    vi.advanceTimersByTime(1);
    expect(ids()).toEqual(["b"]);
  });

  it("counts only the open ones against the five: one leaving makes room", () => {
    const { queue, ids, open } = queueWatched();
    for (const id of ["a", "b", "c", "d", "e"]) queue.add({ id });
    queue.close("c");
    queue.add({ id: "f" });
    expect(open()).toEqual(["a", "b", "d", "e", "f"]);
    vi.advanceTimersByTime(200);
    expect(ids()).toEqual(["a", "b", "d", "e", "f"]);
  });

  it("closes a toast once: closing it again does not put off its removal", () => {
    const { queue, ids } = queueWatched();
    queue.add({ id: "a" });
    queue.close("a");
    vi.advanceTimersByTime(150);
    queue.close("a");
    vi.advanceTimersByTime(50);
    expect(ids()).toEqual([]);
  });

  it("forgets pending removals when the stack goes away", () => {
    const { queue, ids } = queueWatched();
    queue.add({ id: "a" });
    queue.close("a");
    queue.dispose();
    vi.advanceTimersByTime(1_000);
    expect(ids()).toEqual(["a"]);
  });
});
