import type { PostRow } from './repository.ts';

interface Entry {
  rows: PostRow[];
  expiresAt: number;
}

/**
 * Pages of the public wall, shared by every reader for a moment. The global feed is the same for
 * everyone (public posts without a group); only each reader's own reactions differ, and those are
 * read apart (one small statement). During an episode thousands of fans open the same first pages:
 * one read serves them all, and concurrent misses of one page share that read.
 *
 * A page is dropped when a post appears, changes or disappears (on any instance, through the
 * `wall.live` events), so a published post is on the first page at once; reaction and comment
 * counts in a cached page may be up to `ttlMs` old, and the live topics update them on screen.
 * Bounded: the oldest page goes when `maxPages` are held.
 */
export class FeedPageCache {
  private readonly pages = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<PostRow[]>>();
  /** Bumped by invalidate(): a read that started before it is not cached after it. */
  private generation = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly ttlMs = 1_000,
    private readonly maxPages = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, load: () => Promise<PostRow[]>): Promise<PostRow[]> {
    const entry = this.pages.get(key);
    if (entry && entry.expiresAt > this.now()) {
      this.stats.hits++;
      return entry.rows;
    }
    const pending = this.loading.get(key);
    if (pending) {
      this.stats.hits++;
      return pending;
    }
    this.stats.misses++;
    if (this.ttlMs <= 0) return load();
    const generation = this.generation;
    const loaded = load()
      .then((rows) => {
        if (generation === this.generation) this.store(key, rows);
        return rows;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, loaded);
    return loaded;
  }

  invalidate(): void {
    this.generation++;
    this.pages.clear();
    this.loading.clear();
  }

  private store(key: string, rows: PostRow[]): void {
    this.pages.delete(key);
    this.pages.set(key, { rows, expiresAt: this.now() + this.ttlMs });
    if (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value!);
  }
}
