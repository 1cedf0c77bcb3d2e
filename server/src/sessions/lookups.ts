import type { DbOrTx } from '@tribuna/drizzle/client';
import { findActiveSessions, type ActiveSessionRow } from './repository.ts';

/** Session ids looked up in one statement at most (a burst larger than this takes several). */
export const MAX_LOOKUPS_PER_QUERY = 500;

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

  constructor(readonly db: DbOrTx) {}

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
