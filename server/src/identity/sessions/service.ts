import type { Role } from '@tribuna/contracts/roles';
import type { DbOrTx } from '@tribuna/drizzle/client';
import {
  LAST_SEEN_RESOLUTION_MS,
  MFA_PENDING_TTL_MS,
  SESSION_MAX_LIFETIME_MS,
  SESSION_REFRESH_THRESHOLD_MS,
  SESSION_TTL_MS,
  USER_AGENT_MAX_LENGTH,
} from './constants.ts';
import type { SessionCache } from './cache.ts';
import type { SessionLookups } from './lookups.ts';
import * as repo from './repository.ts';
import type { SessionLevel } from './repository.ts';
import { looksLikeSessionToken, newSessionToken, sessionIdFor } from './tokens.ts';

export type { SessionLevel } from './repository.ts';

/** The session behind the request's cookie, full or still waiting for a second factor. */
export interface SessionInfo {
  id: string;
  userId: string;
  level: SessionLevel;
  /** True while a verified second factor is owed: every guard treats the request as signed out. */
  mfaPending: boolean;
  expiresAt: Date;
  /** The sign-in's time: the session ends SESSION_MAX_LIFETIME_MS after it whatever its use. */
  createdAt: Date;
}

/** The signed-in user of a full session (`request.user`). */
export interface AuthUser {
  id: string;
  role: Role;
  isSuspended: boolean;
  sessionId: string;
  level: SessionLevel;
  /** When the account was created: a new one (MODERATION_LIMITS.trustedAccountAgeMs) posts and comments under tighter limits. */
  accountCreatedAt: Date;
  /** Silenced by moderation until then (no posting, commenting or reacting while in the future); null when never silenced. */
  silencedUntil: Date | null;
}

/** A session just written: the cookie carries `token`, the database only its hash. */
export interface IssuedSession {
  token: string;
  id: string;
  expiresAt: Date;
  level: SessionLevel;
  mfaPending: boolean;
}

export interface SessionStart {
  userId: string;
  /** The sign-in still owes a verified second factor. */
  mfaPending: boolean;
  level?: SessionLevel;
  userAgent?: string | undefined;
  ip?: string | undefined;
  /** When the sign-in happened, for a session that replaces one of the same sign-in (default: now). */
  signedInAt?: Date;
}

/** The latest a session of a sign-in at `createdAt` may last: SESSION_MAX_LIFETIME_MS after it. */
export function lifetimeEnd(createdAt: Date): Date {
  return new Date(createdAt.getTime() + SESSION_MAX_LIFETIME_MS);
}

/** A full TTL from `now`, never past the session's absolute lifetime. */
function cappedExpiry(now: Date, ttlMs: number, createdAt: Date): Date {
  return new Date(Math.min(now.getTime() + ttlMs, lifetimeEnd(createdAt).getTime()));
}

function cut(value: string | undefined, max: number): string | null {
  if (!value) return null;
  const chars = Array.from(value);
  return chars.length <= max ? value : chars.slice(0, max).join('');
}

/** Writes a new session row and returns the token for the cookie. */
export async function startSession(db: DbOrTx, start: SessionStart, now = new Date()): Promise<IssuedSession> {
  const token = newSessionToken();
  const id = sessionIdFor(token);
  const ttl = start.mfaPending ? MFA_PENDING_TTL_MS : SESSION_TTL_MS;
  const createdAt = start.signedInAt ?? now;
  const expiresAt = cappedExpiry(now, ttl, createdAt);
  const level = start.level ?? 'aal1';
  await repo.insertSession(db, {
    id,
    userId: start.userId,
    level,
    mfaPending: start.mfaPending,
    userAgent: cut(start.userAgent, USER_AGENT_MAX_LENGTH),
    ip: start.ip ?? null,
    createdAt,
    lastSeenAt: now,
    expiresAt,
  });
  return { token, id, expiresAt, level, mfaPending: start.mfaPending };
}

export interface ResolvedSession {
  session: SessionInfo;
  /** Null while the session is waiting for its second factor. */
  user: AuthUser | null;
  /** Set when this request extended the session: the cookie must be re-set with this expiry. */
  refreshedUntil: Date | null;
}

/**
 * Resolves a cookie token into its live session: from the app's session cache, else looked up with
 * the other sessions of the same event-loop turn (one indexed query for all of them). A full
 * session with less than SESSION_REFRESH_THRESHOLD_MS left is extended to a full TTL (rolling
 * expiry), never past SESSION_MAX_LIFETIME_MS after its sign-in; an older session is refused.
 */
export async function resolveSession(
  lookups: Pick<SessionLookups, 'db' | 'find' | 'touch'>,
  cache: SessionCache,
  token: string,
  now = new Date(),
): Promise<ResolvedSession | null> {
  if (!looksLikeSessionToken(token)) return null;
  const db = lookups.db;
  const id = sessionIdFor(token);
  // Taken before any read: what is read after an invalidation that happens meanwhile is not cached.
  const generation = cache.generation;
  let row = cache.get(id, now.getTime());
  if (!row) {
    row = await lookups.find(id);
    if (!row) return null;
    cache.set(row, now.getTime(), generation);
  }
  // The lookup leaves such sessions out; this catches a cached one (and rows written before the cap).
  if (lifetimeEnd(row.createdAt).getTime() <= now.getTime()) {
    cache.evictSession(row.id);
    return null;
  }

  let expiresAt = row.expiresAt;
  let refreshedUntil: Date | null = null;
  const extended = cappedExpiry(now, SESSION_TTL_MS, row.createdAt);
  if (!row.mfaPending && expiresAt.getTime() - now.getTime() < SESSION_REFRESH_THRESHOLD_MS && extended.getTime() > expiresAt.getTime()) {
    expiresAt = extended;
    refreshedUntil = expiresAt;
    await repo.touchSession(db, row.id, { lastSeenAt: now, expiresAt });
    cache.set({ ...row, lastSeenAt: now, expiresAt }, now.getTime(), generation);
  } else if (now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    lookups.touch(row.id, now);
    cache.set({ ...row, lastSeenAt: now }, now.getTime(), generation);
  }

  const session: SessionInfo = {
    id: row.id,
    userId: row.userId,
    level: row.level,
    mfaPending: row.mfaPending,
    expiresAt,
    createdAt: row.createdAt,
  };
  const user: AuthUser | null = row.mfaPending
    ? null
    : {
        id: row.userId,
        role: row.role,
        isSuspended: row.isSuspended,
        sessionId: row.id,
        level: row.level,
        accountCreatedAt: row.accountCreatedAt,
        silencedUntil: row.silencedUntil,
      };
  return { session, user, refreshedUntil };
}

// Every write below first invalidates what it changes in the app's session cache: the entry goes,
// and its key is held out of the cache until well after the write commits (a lookup racing the
// write cannot put the old row back, even if the commit's NOTIFY never arrives). Before the write,
// never after: after would leave a window between the commit and the eviction.

/** Revokes one session (sign-out, a sign-in replacing the browser's previous session). */
export async function endSession(db: DbOrTx, cache: SessionCache, sessionId: string, now = new Date()): Promise<void> {
  cache.invalidateSession(sessionId);
  await repo.revokeSession(db, sessionId, now);
}

/** Revokes every live session of a user (suspension, account deletion); returns how many were live. */
export async function endAllSessions(db: DbOrTx, cache: SessionCache, userId: string, now = new Date()): Promise<number> {
  cache.invalidateUser(userId);
  return repo.revokeUserSessions(db, userId, now);
}

/**
 * Replaces a session by a fresh one at a higher assurance level (a verified second factor).
 * The token changes whenever the privilege does, so a token seen before cannot ride along; the
 * sign-in stays the same, so does the end of its absolute lifetime.
 */
export async function elevateSession(
  db: DbOrTx,
  cache: SessionCache,
  previous: SessionInfo,
  context: { userAgent?: string | undefined; ip?: string | undefined },
  now = new Date(),
): Promise<IssuedSession> {
  cache.invalidateSession(previous.id);
  await repo.revokeSession(db, previous.id, now);
  return startSession(db, { userId: previous.userId, mfaPending: false, level: 'aal2', signedInAt: previous.createdAt, ...context }, now);
}

/** After a verified factor is removed: live sessions drop to aal1, pending sign-ins are cancelled. */
export async function downgradeSessions(db: DbOrTx, cache: SessionCache, userId: string, now = new Date()): Promise<void> {
  cache.invalidateUser(userId);
  await repo.revokePendingSessions(db, userId, now);
  // Before each of the two writes (the hold then runs from the second).
  cache.invalidateUser(userId);
  await repo.setUserSessionsLevel(db, userId, 'aal1');
}
