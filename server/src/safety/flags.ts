/**
 * The authors a reader hides: null when nobody; their ids while there are at most
 * MAX_HIDDEN_KEPT (the walls then leave them out of the shared pages in memory); 'many' beyond
 * (the walls ask the reader's own page's ids, the hidden ones left out in the statement).
 */
export type HiddenAuthors = ReadonlySet<string> | 'many' | null;

/** Hidden authors kept in memory per reader (about 60 bytes each). */
export const MAX_HIDDEN_KEPT = 2_000;

interface Entry {
  hidden: HiddenAuthors;
  expiresAt: number;
}

/**
 * Whom a reader hides from their walls: they muted or blocked somebody, or somebody blocked them
 * (issue 29), kept in memory for a while by user id. The walls ask it on every page to choose their
 * path: a reader who hides nobody reads the pages shared by everybody (wall/pageCache.ts); one who
 * hides a few (up to MAX_HIDDEN_KEPT) reads the same shared pages, which hold three pages' worth of
 * posts, with the hidden authors left out in memory; one who hides more, or whose hidden authors
 * leave too few posts of a shared page, asks their own page's ids (the hidden authors left out in
 * the statement, a hashed subplan over their mutes and blocks) and takes the shared cards
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
  private readonly loading = new Map<string, Promise<HiddenAuthors>>();
  private generation = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly load: (userId: string) => Promise<HiddenAuthors>,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whom `userId` hides (see HiddenAuthors). */
  async hiddenAuthors(userId: string): Promise<HiddenAuthors> {
    const entry = this.entries.get(userId);
    if (entry && entry.expiresAt > this.now()) {
      this.stats.hits++;
      return entry.hidden;
    }
    const pending = this.loading.get(userId);
    if (pending) {
      this.stats.hits++;
      return pending;
    }
    this.stats.misses++;
    const generation = this.generation;
    const loaded = this.load(userId).then((hidden) => {
      if (generation === this.generation && this.ttlMs > 0) this.store(userId, hidden);
      return hidden;
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

  private store(userId: string, hidden: HiddenAuthors): void {
    this.entries.delete(userId);
    this.entries.set(userId, { hidden, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
