interface Entry {
  hides: boolean;
  expiresAt: number;
}

/**
 * Whether a reader hides anybody from their walls: they muted or blocked somebody, or somebody
 * blocked them (issue 29), kept in memory for a while by user id. The walls ask it on every page
 * to choose their path: a reader who hides nobody reads the pages shared by everybody
 * (wall/pageCache.ts), one who does asks their own page's ids (the hidden authors left out in the
 * statement, a hashed subplan over their mutes and blocks) and takes the shared cards
 * (wall/cardCache.ts), as the 'Siguiendo' wall does.
 *
 * Why here and not counters on profiles or the session: a counter would still have to be read per
 * page (a statement), and the session's row is cached for a minute and its invalidation closes the
 * user's sockets. Three index probes answer the question when it is not known here; the answer is
 * kept `ttlMs` and dropped at once when a mute or block of that user begins or ends: on this instance
 * by the change itself (`drop`, after its commit), on the others by the `safety.changed` event. Only a
 * stale "hides nobody" would matter (the shared page would show a muted author for up to `ttlMs`
 * when that event is lost); a stale "hides somebody" only costs the reader the personal path, whose
 * statement asks the tables themselves.
 *
 * A read that started before a drop is not kept after it (the generation), and concurrent misses
 * of one user share one read. Bounded: the oldest entry goes when `maxEntries` are held.
 */
export class HiddenAuthorFlags {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<boolean>>();
  private generation = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly load: (userId: string) => Promise<boolean>,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `userId` mutes or blocks somebody, or is blocked by somebody. */
  async hidesAuthors(userId: string): Promise<boolean> {
    const entry = this.entries.get(userId);
    if (entry && entry.expiresAt > this.now()) {
      this.stats.hits++;
      return entry.hides;
    }
    const pending = this.loading.get(userId);
    if (pending) {
      this.stats.hits++;
      return pending;
    }
    this.stats.misses++;
    const generation = this.generation;
    const loaded = this.load(userId).then((hides) => {
      if (generation === this.generation && this.ttlMs > 0) this.store(userId, hides);
      return hides;
    });
    this.loading.set(userId, loaded);
    const forget = () => {
      if (this.loading.get(userId) === loaded) this.loading.delete(userId);
    };
    void loaded.then(forget, forget);
    return loaded;
  }

  /** Forgets what is known of these users (a mute or block of theirs began or ended). */
  drop(userIds: readonly string[]): void {
    this.generation++;
    for (const id of userIds) {
      this.entries.delete(id);
      this.loading.delete(id);
    }
  }

  /** Forgets everything (the `safety.changed` events of the other instances may have been missed). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }

  private store(userId: string, hides: boolean): void {
    this.entries.delete(userId);
    this.entries.set(userId, { hides, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
