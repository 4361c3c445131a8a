/**
 * What every table-backed queue of the store (the mail queue, the line jobs) does the same way:
 * rounds of work in the background — on a timer, sooner when nudged, one round at a time per
 * process — and a backoff between attempts. Each queue claims its rows itself, with a conditional
 * UPDATE and a lease on its own table, so that rounds in several processes never take one row
 * twice.
 */

const NUDGE_DELAY_MS = 25;

export interface QueueRoundsOptions {
  /** One round: claims and works at most `limit` rows; answers how many it claimed. */
  round: (limit: number) => Promise<{ claimed: number }>;
  /** How many rows one background round claims (rounds follow each other while full). */
  batchSize: number;
  /** A round that failed as a whole (the database did not answer): logged, tried again later. */
  onRoundFailed: (error: unknown) => void;
}

export interface QueueRounds {
  /** Keeps count of work under way, so that `stop` waits for it. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** A round every `intervalMs` in the background (an unref'd timer), starting now. */
  start(intervalMs: number): void;
  /** No more rounds; resolves when the work under way is done. */
  stop(): Promise<void>;
  /** A round soon (after something was queued) without waiting for the interval. */
  nudge(): void;
}

export function createQueueRounds(options: QueueRoundsOptions): QueueRounds {
  const inFlight = new Set<Promise<unknown>>();
  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let nudgeTimer: ReturnType<typeof setTimeout> | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  /** One background round at a time; a nudge during a round asks for another right after. */
  function runRound(): void {
    if (stopped) return;
    if (round) {
      again = true;
      return;
    }
    round = track(
      (async () => {
        try {
          do {
            again = false;
            const report = await options.round(options.batchSize);
            // A full batch means more may be due: go on without waiting for the timer.
            if (report.claimed >= options.batchSize) again = true;
          } while (again && !stopped);
        } catch (error) {
          options.onRoundFailed(error);
        } finally {
          round = null;
        }
      })(),
    );
  }

  return {
    track,

    start(intervalMs) {
      if (timer) return;
      stopped = false;
      timer = setInterval(runRound, Math.max(100, intervalMs));
      timer.unref();
      runRound();
    },

    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (nudgeTimer) clearTimeout(nudgeTimer);
      timer = null;
      nudgeTimer = null;
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },

    nudge() {
      if (stopped || nudgeTimer) return;
      nudgeTimer = setTimeout(() => {
        nudgeTimer = null;
        runRound();
      }, NUDGE_DELAY_MS);
      nudgeTimer.unref();
    },
  };
}

/** The wait after failed attempt number `attempt` (1, 2…): the schedule's last entry repeats. */
export function backoffDelay(delaysMs: readonly number[], attempt: number): number {
  return delaysMs[Math.min(Math.max(1, attempt), delaysMs.length) - 1];
}

/** Works the items with at most `concurrency` at once, in order of start. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  async function worker() {
    while (next < items.length) await work(items[next++]);
  }
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, worker),
  );
}
