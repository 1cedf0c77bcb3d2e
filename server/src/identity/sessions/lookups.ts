import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { findActiveSessions, touchSessionsLastSeen, type ActiveSessionRow } from './repository.ts';

/** Session ids looked up in one statement at most (a burst larger than this takes several). */
export const MAX_LOOKUPS_PER_QUERY = 500;

/** last_seen_at touches wait this long to be written together. */
export const TOUCH_FLUSH_MS = 1_000;

/** Sessions whose last_seen_at one statement moves at most. */
export const MAX_TOUCHES_PER_QUERY = 1_000;

interface Waiter {
  resolve(row: ActiveSessionRow | null): void;
  reject(error: unknown): void;
}

/**
 * Coalesces the session lookups of one event-loop turn into one query. When an episode starts,
 * thousands of fans arrive with sessions not yet in the in-process cache: their first requests then
 * cost one round trip per turn instead of one each, and leave the connection pool to the votes.
 * A lone request waits only for the end of its turn (setImmediate). Requests for the same session
 * in one turn share its row.
 */
export class SessionLookups {
  private queue = new Map<string, Waiter[]>();
  private scheduled = false;
  private touches = new Map<string, Date>();
  private touchTimer: NodeJS.Timeout | null = null;
  private touching: Promise<void> = Promise.resolve();

  constructor(
    readonly db: DbOrTx,
    private readonly logger?: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  /**
   * Records that session `id` was seen at `at`, written with the other touches of the next
   * TOUCH_FLUSH_MS (one statement per MAX_TOUCHES_PER_QUERY), never in the request's path:
   * last_seen_at is bookkeeping, and sessions started together (the start of an episode) come due
   * together; awaited one by one, their updates took a share of the connection pool from the votes
   * every LAST_SEEN_RESOLUTION_MS. A touch that cannot be written is logged and dropped.
   */
  touch(id: string, at: Date): void {
    const known = this.touches.get(id);
    if (!known || known < at) this.touches.set(id, at);
    if (!this.touchTimer) {
      this.touchTimer = setTimeout(() => void this.flushTouches(), TOUCH_FLUSH_MS);
      this.touchTimer.unref();
    }
  }

  /** Writes the pending touches now (also when the server stops); resolves once they are written or dropped. */
  flushTouches(): Promise<void> {
    if (this.touchTimer) clearTimeout(this.touchTimer);
    this.touchTimer = null;
    const batch = [...this.touches].map(([id, at]) => ({ id, at }));
    this.touches = new Map();
    const write = async () => {
      for (const chunk of chunks(batch, MAX_TOUCHES_PER_QUERY)) {
        try {
          await touchSessionsLastSeen(this.db, chunk);
        } catch (err) {
          this.logger?.warn({ err, sessions: chunk.length }, 'could not record when sessions were last seen; dropped');
        }
      }
    };
    // One flush at a time, in order.
    this.touching = this.touching.then(write);
    return this.touching;
  }

  /** The live session `id` (revoked and expired ones are null), found with the turn's others. */
  find(id: string): Promise<ActiveSessionRow | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.queue.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.queue.set(id, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = [...this.queue];
    this.queue = new Map();
    const now = new Date();
    await Promise.all(
      chunks(batch, MAX_LOOKUPS_PER_QUERY).map(async (chunk) => {
        try {
          const rows = await findActiveSessions(
            this.db,
            chunk.map(([id]) => id),
            now,
          );
          const byId = new Map(rows.map((row) => [row.id, row]));
          for (const [id, waiters] of chunk) for (const w of waiters) w.resolve(byId.get(id) ?? null);
        } catch (err) {
          for (const [, waiters] of chunk) for (const w of waiters) w.reject(err);
        }
      }),
    );
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
