import type { ActiveSessionRow } from './repository.ts';

/** How long a resolved session may be served from memory before PostgreSQL is asked again. */
export const SESSION_CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 100_000;

interface Entry {
  row: ActiveSessionRow;
  cachedAt: number;
}

/**
 * Resolved sessions kept in memory for up to a minute so a burst of requests (a fan voting during
 * an episode) costs one session query, not one per request. Correctness does not depend on the
 * TTL: revocations and role or suspension changes evict entries twice — here, synchronously, in
 * the process that made the change, and on every instance when the change commits (PostgreSQL
 * NOTIFY on channel `tribuna_auth`, see migration 0002).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs = SESSION_CACHE_TTL_MS) {}

  get(id: string, now: number): ActiveSessionRow | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (now - entry.cachedAt > this.ttlMs || entry.row.expiresAt.getTime() <= now) {
      this.entries.delete(id);
      return null;
    }
    return entry.row;
  }

  set(row: ActiveSessionRow, now: number): void {
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(row.id, { row, cachedAt: now });
  }

  evictSession(id: string): void {
    this.entries.delete(id);
  }

  evictUser(userId: string): void {
    for (const [id, entry] of this.entries) if (entry.row.userId === userId) this.entries.delete(id);
  }

  /** Applies a `tribuna_auth` notification payload: `s:<sessionId>` or `u:<userId>`. */
  applyNotification(payload: string): void {
    if (payload.startsWith('s:')) this.evictSession(payload.slice(2));
    else if (payload.startsWith('u:')) this.evictUser(payload.slice(2));
  }

  clear(): void {
    this.entries.clear();
  }
}

/** One cache per process: every app instance in it reads the same sessions table. */
export const sessionCache = new SessionCache();

export const AUTH_NOTIFY_CHANNEL = 'tribuna_auth';
