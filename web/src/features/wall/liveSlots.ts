/** At most this many `post:{id}` topics are watched at once (the cards on screen). */
export const MAX_LIVE_POSTS = 16;

interface Waiter {
  id: number;
  grant: () => void;
}

/**
 * A small pool of live subscriptions for on-screen cards: a card asks for a slot when it scrolls
 * into view and gives it back when it leaves; past the cap it waits for one to free up.
 */
export class SlotPool {
  private held = new Set<number>();
  private waiting: Waiter[] = [];
  private nextId = 0;

  constructor(private readonly capacity: number) {}

  /** Calls `grant` once a slot is free (maybe at once); the returned function gives it back or stops waiting. */
  acquire(grant: () => void): () => void {
    const id = ++this.nextId;
    if (this.held.size < this.capacity) {
      this.held.add(id);
      grant();
    } else {
      this.waiting.push({ id, grant });
    }
    return () => {
      if (this.held.delete(id)) {
        const next = this.waiting.shift();
        if (next) {
          this.held.add(next.id);
          next.grant();
        }
      } else {
        this.waiting = this.waiting.filter((w) => w.id !== id);
      }
    };
  }

  get size() {
    return this.held.size;
  }
}

export const livePostSlots = new SlotPool(MAX_LIVE_POSTS);
