import type { Profile } from '@tribuna/contracts/api/me';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { badRequest, notFound } from '../../http/errors.ts';
import { presentProfile } from '../../profiles/presenter.ts';
import * as profiles from '../../profiles/repository.ts';
import * as sessions from '../../sessions/service.ts';
import type { AuthUser } from '../../sessions/service.ts';

export const CANNOT_SUSPEND_SELF = 'No puedes suspender tu propia cuenta';
export const USER_NOT_FOUND = 'Usuario no encontrado';

/**
 * Suspends a user and revokes all of their sessions in one transaction: the suspended user is
 * signed out everywhere at once (signing in again works, but writing is refused).
 */
export async function suspendUser(db: DbOrTx, admin: AuthUser, userId: string, now = new Date()): Promise<Profile> {
  if (userId === admin.id) throw badRequest(CANNOT_SUSPEND_SELF);
  return db.transaction(async (tx) => {
    const profile = await profiles.setSuspended(tx, userId, true, now);
    if (!profile) throw notFound(USER_NOT_FOUND);
    await sessions.endAllSessions(tx, userId, now);
    return presentProfile(profile);
  });
}

export async function unsuspendUser(db: DbOrTx, userId: string, now = new Date()): Promise<Profile> {
  const profile = await profiles.setSuspended(db, userId, false, now);
  if (!profile) throw notFound(USER_NOT_FOUND);
  return presentProfile(profile);
}
