import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { SESSION_MAX_LIFETIME_MS } from '../../../server/src/identity/sessions/constants.ts';

const { sessions } = schema;

/**
 * Deletes sessions that ended before `cutoff`: expired, revoked, or past their absolute lifetime
 * (SESSION_MAX_LIFETIME_MS after the sign-in, even when expires_at says later); returns how many went.
 */
export async function deleteSessionsEndedBefore(db: DbOrTx, cutoff: Date): Promise<number> {
  const signedInBefore = new Date(cutoff.getTime() - SESSION_MAX_LIFETIME_MS);
  const rows = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, cutoff), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, cutoff)), lt(sessions.createdAt, signedInBefore)))
    .returning({ id: sessions.id });
  return rows.length;
}
