// Loaded with `node --import` into a server a test started (server-process.ts, `movableClock`):
// the process's wall clock (Date) runs on from where the test moved it, so a journey that waits
// out a window of the server's (the 180 s sign-in state, an authenticator's 30 s step) moves the
// clock past it instead of sleeping. Timers, performance.now() and the browser's clock are left
// alone: only what the server reads as the date moves. The test sends
// `{ moveClockBySeconds: n }` over the child's IPC channel and waits for `{ clockMovedBySeconds }`.

const RealDate = globalThis.Date;
let offsetMs = 0;

const now = () => RealDate.now() + offsetMs;

function MovableDate(...args) {
  // Called without `new`, Date gives the current date as a string.
  if (!new.target) return new RealDate(now()).toString();
  return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
}
// Dates made here are the real Date's: `instanceof Date`, its methods and its statics stay.
MovableDate.prototype = RealDate.prototype;
Object.setPrototypeOf(MovableDate, RealDate);
MovableDate.now = now;
Object.defineProperty(RealDate.prototype, "constructor", {
  value: MovableDate,
  writable: true,
  configurable: true,
});
globalThis.Date = MovableDate;

if (process.send) {
  process.on("message", (message) => {
    const seconds = message?.moveClockBySeconds;
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return;
    offsetMs += seconds * 1000;
    process.send({ clockMovedBySeconds: offsetMs / 1000 });
  });
  // The channel alone must not keep the server running once it has shut down.
  process.channel?.unref();
}
