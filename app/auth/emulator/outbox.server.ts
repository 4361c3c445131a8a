/**
 * The development outbox of the embedded identity emulator: what it "sent". A leaf of its own so
 * that a process reaches it without loading the emulator (a cluster's worker, whose primary runs
 * the emulator, and every process with a real pool, where the emulator is not even installed).
 */

/** A code (or temporary password) the emulator "sent", kept for the development outbox. */
export interface OutboxEntry {
  id: number;
  sentAt: string;
  to: string;
  medium: "EMAIL" | "SMS";
  /** cognito-local's message source: SignUp, ResendCode, ForgotPassword, VerifyUserAttribute… */
  purpose: string;
  code: string;
}

const OUTBOX_CAPACITY = 500;

export class Outbox {
  private entries: OutboxEntry[] = [];
  private nextId = 1;

  /** `onAdd` hears of each code too: a cluster's primary relays them to its workers. */
  constructor(private readonly onAdd?: (entry: OutboxEntry) => void) {}

  add(entry: Omit<OutboxEntry, "id" | "sentAt">): OutboxEntry {
    const stored = { ...entry, id: this.nextId++, sentAt: new Date().toISOString() };
    this.entries.push(stored);
    if (this.entries.length > OUTBOX_CAPACITY) this.entries.shift();
    this.onAdd?.(stored);
    return stored;
  }

  /** Newest first; only those sent to `to` when given. */
  list(to?: string | null): OutboxEntry[] {
    const wanted = to?.trim().toLowerCase();
    return this.entries.filter((entry) => !wanted || entry.to.toLowerCase() === wanted).reverse();
  }
}
