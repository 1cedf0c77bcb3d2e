/**
 * The global feed's total (posts everyone sees) for a short while, so that the thousands of readers
 * of an episode do not each read it (one row of feed_counts, kept by triggers on posts). Dropped
 * whenever a post appears or disappears (this instance at once; the others through the `wall.live`
 * events), so a reader's count is at most `ttlMs` behind for changes no event carries (an admin's
 * count of followers-only posts). A group's wall and a reader's 'Siguiendo' wall keep theirs the
 * same way while somebody pages through them (one count, not one per page); at most `maxEntries`
 * are kept, the oldest going first.
 */
export class FeedTotals {
  private readonly entries = new Map<string, { value: number; expiresAt: number }>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): number | null {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) return null;
    return entry.value;
  }

  set(key: string, value: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const now = this.now();
      for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
      // Still full: the oldest set first (a Map keeps insertion order).
      for (const k of this.entries.keys()) {
        if (this.entries.size < this.maxEntries) break;
        this.entries.delete(k);
      }
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  invalidate(): void {
    this.entries.clear();
  }
}
