import type { PostRow } from './repository.ts';

interface Entry {
  card: PostRow;
  expiresAt: number;
}

/**
 * Post cards (author, media, reaction and comment counts: everything but a reader's own reaction)
 * shared by every reader for a moment, by post id. Walls whose pages differ from reader to reader
 * (a reader's 'Siguiendo' wall) still show mostly the same posts to many readers: each page asks
 * its own ids (one small statement) and takes the cards from here, reading only the missing ones,
 * all in one statement; concurrent misses of one card share that read.
 *
 * The same moment as the shared pages (pageCache.ts): a card's counts may be up to `ttlMs` old (the
 * live topics update them on screen). A post edited or deleted on any instance drops its card
 * (`drop`, from the `wall.live` events); a new post drops nothing, as no card shows it yet. Bounded:
 * the oldest card goes when `maxCards` are held. `ttlMs` 0 keeps none.
 */
export class PostCardCache {
  private readonly cards = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<PostRow | undefined>>();
  /** Bumped by invalidate(): a read that started before it is not kept after it. */
  private generation = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly ttlMs = 1_000,
    private readonly maxCards = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cards of `ids` that exist (in the order of `ids`), reading the missing ones with `load`. */
  async getMany(ids: string[], load: (missing: string[]) => Promise<PostRow[]>): Promise<PostRow[]> {
    const now = this.now();
    const found = new Map<string, PostRow | Promise<PostRow | undefined>>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = this.cards.get(id);
      if (entry && entry.expiresAt > now) {
        this.stats.hits++;
        found.set(id, entry.card);
        continue;
      }
      const pending = this.loading.get(id);
      if (pending) {
        this.stats.hits++;
        found.set(id, pending);
        continue;
      }
      this.stats.misses++;
      missing.push(id);
    }
    if (missing.length > 0) {
      const generation = this.generation;
      const batch = load(missing).then((rows) => new Map(rows.map((row) => [row.id, row])));
      for (const id of missing) {
        const one = batch.then((rows) => {
          const card = rows.get(id);
          if (card && this.ttlMs > 0 && generation === this.generation) this.store(id, card);
          return card;
        });
        found.set(id, one);
        if (this.ttlMs > 0) {
          this.loading.set(id, one);
          void one.then(
            () => this.dropLoading(id, one),
            () => this.dropLoading(id, one),
          );
        }
      }
    }
    const cards = await Promise.all(ids.map((id) => found.get(id)));
    return cards.filter((card): card is PostRow => card !== undefined);
  }

  invalidate(): void {
    this.generation++;
    this.cards.clear();
    this.loading.clear();
  }

  /** Drops one post's card (edited, deleted, hidden): the next page reads it again; reads under way are not kept. */
  drop(postId: string): void {
    this.generation++;
    this.cards.delete(postId);
    this.loading.delete(postId);
  }

  private dropLoading(id: string, promise: Promise<PostRow | undefined>): void {
    if (this.loading.get(id) === promise) this.loading.delete(id);
  }

  private store(id: string, card: PostRow): void {
    this.cards.delete(id);
    this.cards.set(id, { card, expiresAt: this.now() + this.ttlMs });
    if (this.cards.size > this.maxCards) this.cards.delete(this.cards.keys().next().value!);
  }
}
