/**
 * The global feed's total (posts everyone sees) for a short while, so that the thousands of readers
 * of an episode do not each read it (one row of feed_counts, kept by triggers on posts). Dropped
 * whenever a post appears or disappears (this instance at once; the others through the `wall.live`
 * events), so a reader's count is at most `ttlMs` behind for changes no event carries (an admin's
 * count of followers-only posts).
 */
export class FeedTotals {
  private readonly entries = new Map<string, { value: number; expiresAt: number }>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): number | null {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) return null;
    return entry.value;
  }

  set(key: string, value: number): void {
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  invalidate(): void {
    this.entries.clear();
  }
}
