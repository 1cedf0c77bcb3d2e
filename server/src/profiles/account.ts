import type { Profile } from '@tribuna/contracts/api/me';
import type { DbOrTx } from '@tribuna/drizzle/client';
import * as accounts from '../accounts/repository.ts';
import * as factors from '../factors/repository.ts';
import { badRequest, unauthorized } from '../http/errors.ts';
import { NOT_AUTHENTICATED } from '../plugins/auth.ts';
import * as sessions from '../sessions/service.ts';
import type { AuthUser } from '../sessions/service.ts';
import { presentProfile } from './presenter.ts';
import * as profiles from './repository.ts';

// The signed-in user's own profile and account (/api/me).

export const DELETE_CONFIRMATION_WORD = 'ELIMINAR';
export const DELETE_CONFIRMATION_MESSAGE = 'Debes escribir "ELIMINAR" para confirmar';

/** GET /api/me */
export async function getOwnProfile(db: DbOrTx, user: AuthUser): Promise<Profile> {
  const profile = await profiles.findProfile(db, user.id);
  if (!profile) throw unauthorized(NOT_AUTHENTICATED);
  return presentProfile(profile);
}

/**
 * DELETE /api/me: the spec's account deletion, in one transaction. The profile stays (posts and
 * comments keep pointing at it) but anonymised and suspended; the private account (e-mail, Google
 * identity) and second factors are deleted, and every session of the user is revoked.
 */
export async function deleteOwnAccount(db: DbOrTx, user: AuthUser, confirm: string, now = new Date()): Promise<void> {
  if (confirm.trim() !== DELETE_CONFIRMATION_WORD) throw badRequest(DELETE_CONFIRMATION_MESSAGE);
  await db.transaction(async (tx) => {
    const profile = await profiles.anonymiseProfile(tx, user.id, now);
    if (!profile) throw unauthorized(NOT_AUTHENTICATED);
    await accounts.deleteAccount(tx, user.id);
    await factors.deleteUserFactors(tx, user.id);
    await sessions.endAllSessions(tx, user.id, now);
  });
}
