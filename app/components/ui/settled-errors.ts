import { useEffect, useState } from "react";

/**
 * A tap that leaves a field must land where the customer aimed. The field's error appears on
 * blur, and blur comes between the press and the click: a message shown at once pushes what is
 * below it (the terms checkbox, the submit button) before the click lands. While a pointer is
 * pressed, new messages wait for the click (or at most PRESS_LIMIT_MS); a keyboard user sees them
 * at once.
 */
const PRESS_LIMIT_MS = 700;

let pressed = false;
let releaseTimer: ReturnType<typeof setTimeout> | undefined;
const waiting = new Set<() => void>();

function release() {
  pressed = false;
  clearTimeout(releaseTimer);
  const run = [...waiting];
  waiting.clear();
  for (const callback of run) callback();
}

let listening = false;
function listen() {
  if (listening || typeof document === "undefined") return;
  listening = true;
  document.addEventListener(
    "pointerdown",
    () => {
      pressed = true;
      clearTimeout(releaseTimer);
      releaseTimer = setTimeout(release, PRESS_LIMIT_MS);
    },
    true,
  );
  // After the click's own handlers: the checkbox is checked before anything moves.
  document.addEventListener("click", () => setTimeout(release, 0), true);
  document.addEventListener("pointercancel", release, true);
}

/** The messages to show now: `errors`, or the previous ones while a press is under way. */
export function useSettledErrors(errors: string[] | undefined): string[] | undefined {
  const [shown, setShown] = useState(errors);
  const key = errors?.join("\n") ?? "";
  const shownKey = shown?.join("\n") ?? "";
  useEffect(() => {
    listen();
    if (key === shownKey) return;
    if (!pressed) {
      setShown(errors);
      return;
    }
    const show = () => setShown(errors);
    waiting.add(show);
    return () => {
      waiting.delete(show);
    };
    // `errors` is read through its key: conform gives a new array on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, shownKey]);
  return shown;
}
