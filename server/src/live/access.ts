/** Whether a poll may be watched live and whether its results (snapshots, voters) are public. */
export interface PollAccess {
  /** Exists and is not a draft: its status changes may be watched. */
  visible: boolean;
  /** Visible and its results are public (the HTTP results endpoint answers 200). */
  showResults: boolean;
}

export const NO_ACCESS: PollAccess = { visible: false, showResults: false };

/**
 * A short-lived cache of PollAccess, so thousands of viewers subscribing to the same poll at the
 * start of an episode cost one PostgreSQL query, not thousands. Concurrent lookups share one
 * promise; failures are not cached; the map is bounded.
 */
export class PollAccessCache {
  private readonly entries = new Map<string, { value: Promise<PollAccess>; at: number }>();

  constructor(
    private readonly load: (pollId: string) => Promise<PollAccess>,
    private readonly ttlMs = 15_000,
    private readonly maxEntries = 10_000,
  ) {}

  check(pollId: string): Promise<PollAccess> {
    const now = Date.now();
    const entry = this.entries.get(pollId);
    if (entry && now - entry.at < this.ttlMs) return entry.value;
    const value = this.load(pollId);
    this.entries.delete(pollId);
    this.entries.set(pollId, { value, at: now });
    value.catch(() => {
      if (this.entries.get(pollId)?.value === value) this.entries.delete(pollId);
    });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }

  invalidate(pollId: string): void {
    this.entries.delete(pollId);
  }
}
