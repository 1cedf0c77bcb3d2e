import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { profiles, sessions } from '@tribuna/drizzle/schema/index';
import { SESSION_MAX_LIFETIME_MS } from './constants.ts';

export type NewSessionRow = typeof sessions.$inferInsert;
export type SessionLevel = (typeof sessions.$inferSelect)['level'];

export async function insertSession(db: DbOrTx, values: NewSessionRow): Promise<void> {
  await db.insert(sessions).values(values);
}

/**
 * The live sessions among `ids`, each with its user's role, suspension, account creation and
 * silence (issue 29): primary-key lookups
 * joined to the profile, in one statement. Revoked and expired sessions are not found, nor those
 * signed in SESSION_MAX_LIFETIME_MS ago or more.
 */
export async function findActiveSessions(db: DbOrTx, ids: string[], now: Date) {
  const signedInAfter = new Date(now.getTime() - SESSION_MAX_LIFETIME_MS);
  return db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      level: sessions.level,
      mfaPending: sessions.mfaPending,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      createdAt: sessions.createdAt,
      role: profiles.role,
      isSuspended: profiles.isSuspended,
      // The account's age (new accounts' tighter limits) and a moderator's silence (issue 29).
      accountCreatedAt: profiles.createdAt,
      silencedUntil: profiles.silencedUntil,
    })
    .from(sessions)
    .innerJoin(profiles, eq(profiles.id, sessions.userId))
    .where(and(inArray(sessions.id, ids), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.createdAt, signedInAfter)));
}

export type ActiveSessionRow = Awaited<ReturnType<typeof findActiveSessions>>[number];

export async function touchSession(db: DbOrTx, id: string, values: { lastSeenAt: Date; expiresAt?: Date }): Promise<void> {
  await db
    .update(sessions)
    .set(values)
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Moves last_seen_at forward for many live sessions in one statement (never backwards). */
export async function touchSessionsLastSeen(db: DbOrTx, touches: { id: string; at: Date }[]): Promise<void> {
  if (touches.length === 0) return;
  await db.execute(sql`
    UPDATE ${sessions} AS s SET last_seen_at = t.at
    FROM jsonb_to_recordset(${JSON.stringify(touches)}::jsonb) AS t(id text, at timestamptz)
    WHERE s.id = t.id AND s.revoked_at IS NULL AND s.last_seen_at < t.at`);
}

/** Revokes one session; returns whether it was still live. */
export async function revokeSession(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every live session of a user at once (suspension, anonymisation). */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** Revokes the user's sign-ins still waiting for a second factor. */
export async function revokePendingSessions(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), eq(sessions.mfaPending, true), isNull(sessions.revokedAt)));
}

/** Sets the assurance level of every live session of a user (a removed factor downgrades them). */
export async function setUserSessionsLevel(db: DbOrTx, userId: string, level: SessionLevel): Promise<void> {
  await db
    .update(sessions)
    .set({ level })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
