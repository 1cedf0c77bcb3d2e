import type { ActiveSessionRow } from './repository.ts';

/** How long a resolved session may be served from memory before PostgreSQL is asked again. */
export const SESSION_CACHE_TTL_MS = 60_000;
/** While a LISTEN connection is down (invalidations may be missed), entries are served this long at most. */
export const SESSION_CACHE_DEGRADED_TTL_MS = 5_000;
/**
 * A session or user invalidated by this instance is not cached again for this long: it covers the
 * moment its write commits even when the commit's NOTIFY never arrives (a silently dead LISTEN).
 */
export const INVALIDATION_HOLD_MS = SESSION_CACHE_TTL_MS;
const MAX_ENTRIES = 100_000;

interface Entry {
  row: ActiveSessionRow;
  cachedAt: number;
}

/**
 * Resolved sessions kept in memory for up to a minute so a burst of requests (a fan voting during
 * an episode) costs one session query, not one per request. Correctness does not depend on the
 * TTL: revocations and role or suspension changes evict entries here, synchronously, in the
 * instance that makes the change (its service layer invalidates before the write, which also holds
 * the key out of the cache until well after the commit), and on every instance when the change
 * commits (PostgreSQL NOTIFY on channel `tribuna_auth`, see migration 0002).
 *
 * One cache per app instance, created by the identity plugin (`app.sessionCache`) and fed by that
 * instance's listener; never a module singleton: two apps in one process (tests) are two instances.
 *
 * A lookup may read a row just before a revocation commits and come back after the notification
 * was applied; caching that row would keep the revoked session alive for a whole TTL. So every
 * lookup notes the `generation` it started at, and `set` refuses a row when any invalidation
 * happened since. A missed notification (LISTEN down) is handled by the listeners: the cache serves
 * only fresh entries while one is down and is flushed when it is back.
 */
/** A committed change heard on `tribuna_auth`: one session's, or a user's role or suspension. */
export interface AuthChange {
  sessionId?: string;
  userId?: string;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly changeListeners = new Set<(change: AuthChange) => void>();
  /** Invalidations so far; a lookup that overlapped one must not cache what it read. */
  private invalidations = 0;
  /** Keys invalidated by this instance, held out of the cache until the time stored (insertion order = expiry order). */
  private readonly heldSessions = new Map<string, number>();
  private readonly heldUsers = new Map<string, number>();
  /** Listeners (LISTEN connections) feeding this cache, and those currently down. */
  private readonly listeners = new Set<object>();
  private readonly listenersDown = new Set<object>();

  constructor(private readonly ttlMs = SESSION_CACHE_TTL_MS) {}

  /** The invalidation count to pass to `set` for a row read from now on. */
  get generation(): number {
    return this.invalidations;
  }

  /** False while invalidations may be missed: no listener yet, or one is disconnected. */
  get listening(): boolean {
    return this.listeners.size > 0 && this.listenersDown.size === 0;
  }

  get(id: string, now: number): ActiveSessionRow | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    const ttl = this.listening ? this.ttlMs : Math.min(this.ttlMs, SESSION_CACHE_DEGRADED_TTL_MS);
    if (now - entry.cachedAt > ttl || entry.row.expiresAt.getTime() <= now) {
      this.entries.delete(id);
      return null;
    }
    return entry.row;
  }

  /** Caches `row`, read by a lookup that started at `generation`, unless it may be stale. */
  set(row: ActiveSessionRow, now: number, generation: number): void {
    if (generation !== this.invalidations) return;
    if (this.isHeld(this.heldSessions, row.id, now) || this.isHeld(this.heldUsers, row.userId, now)) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(row.id, { row, cachedAt: now });
  }

  /** Before this instance revokes or changes a session: forget it and keep it out until its write has surely committed. */
  invalidateSession(id: string, now = Date.now()): void {
    this.hold(this.heldSessions, id, now);
    this.evictSession(id);
  }

  /** invalidateSession for every session of a user. */
  invalidateUser(userId: string, now = Date.now()): void {
    this.hold(this.heldUsers, userId, now);
    this.evictUser(userId);
  }

  evictSession(id: string): void {
    this.invalidations++;
    this.entries.delete(id);
  }

  evictUser(userId: string): void {
    this.invalidations++;
    for (const [id, entry] of this.entries) if (entry.row.userId === userId) this.entries.delete(id);
  }

  /**
   * Applies a `tribuna_auth` notification payload: `s:<sessionId>`, `u:<userId>` (role or
   * suspension: the change listeners hear it), or `d:<userId>` (other data a session carries, a
   * moderator's silence: only the cached entries go).
   */
  applyNotification(payload: string): void {
    let change: AuthChange;
    if (payload.startsWith('d:')) {
      this.evictUser(payload.slice(2));
      return;
    }
    if (payload.startsWith('s:')) {
      change = { sessionId: payload.slice(2) };
      this.evictSession(change.sessionId!);
    } else if (payload.startsWith('u:')) {
      change = { userId: payload.slice(2) };
      this.evictUser(change.userId!);
    } else return;
    for (const listener of this.changeListeners) listener(change);
  }

  /**
   * Hears every committed session change (revoked, second factor passed, shortened) and every
   * role or suspension change, from any instance: the live layer closes the sockets they opened.
   */
  onChange(listener: (change: AuthChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  clear(): void {
    this.invalidations++;
    this.entries.clear();
  }

  /** A listener of this cache lost its LISTEN connection: notifications may be missed until it is back. */
  listenerDown(listener: object): void {
    this.listeners.add(listener);
    this.listenersDown.add(listener);
  }

  /** A listener is (again) receiving notifications: those sent meanwhile are lost, so start afresh. */
  listenerUp(listener: object): void {
    this.listeners.add(listener);
    this.listenersDown.delete(listener);
    this.clear();
  }

  /** A listener stopped for good (its app closed). */
  listenerClosed(listener: object): void {
    this.listeners.delete(listener);
    this.listenersDown.delete(listener);
  }

  private hold(held: Map<string, number>, key: string, now: number): void {
    for (const [k, until] of held) {
      if (until > now) break;
      held.delete(k);
    }
    held.delete(key);
    held.set(key, now + INVALIDATION_HOLD_MS);
  }

  private isHeld(held: Map<string, number>, key: string, now: number): boolean {
    const until = held.get(key);
    return until !== undefined && until > now;
  }
}

export const AUTH_NOTIFY_CHANNEL = 'tribuna_auth';
