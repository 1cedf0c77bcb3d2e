import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

const { sessions } = schema;

/** Deletes sessions expired or revoked before `cutoff`; returns how many went. */
export async function deleteSessionsEndedBefore(db: DbOrTx, cutoff: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, cutoff), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, cutoff))))
    .returning({ id: sessions.id });
  return rows.length;
}
