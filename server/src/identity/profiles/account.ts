import type { Profile } from '@tribuna/contracts/api/me';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import type { Db, DbOrTx } from '@tribuna/drizzle/client';
import * as identity from '../service.ts';
import { badRequest, forbidden, unauthorized } from '../../http/errors.ts';
import type { MediaService } from '../../media/service.ts';
import { NOT_AUTHENTICATED } from '../plugin.ts';
import type { SessionCache } from '../sessions/cache.ts';
import * as sessions from '../sessions/service.ts';
import type { AuthUser } from '../sessions/service.ts';
import * as erasure from './erasureRepository.ts';
import { presentProfile } from './presenter.ts';
import * as profiles from './repository.ts';

// The signed-in user's own profile and account (/api/me).

export const DELETE_CONFIRMATION_WORD = 'ELIMINAR';
export const DELETE_CONFIRMATION_MESSAGE = 'Debes escribir "ELIMINAR" para confirmar';

/**
 * What an account deletion needs besides the database: the media files of the avatar and banner,
 * and the app's session cache (the revoked sessions leave it before their write).
 */
export interface AccountContext {
  db: Db;
  media: Pick<MediaService, 'discard'>;
  log: { warn(obj: object, msg: string): void };
  sessionCache: SessionCache;
}

/** GET /api/me */
export async function getOwnProfile(db: DbOrTx, user: AuthUser): Promise<Profile> {
  const profile = await profiles.findProfile(db, user.id);
  if (!profile) throw unauthorized(NOT_AUTHENTICATED);
  return presentProfile(profile);
}

/**
 * DELETE /api/me: the spec's account deletion, in one transaction. The profile stays (posts and
 * comments keep pointing at it) but anonymised, suspended and without points. Deleted: the private
 * account (e-mail, Google identity: signing in again starts a new profile), second factors, the
 * points history, the user's notifications, every session (revoked first: the revocation is what
 * tells every instance to forget its cached copy, migration 0002), the device fingerprints and
 * browsers of votes and page views, and the uploaded avatar and banner (files removed after
 * commit). A hard delete (posts and comments too) is refused.
 */
export async function deleteOwnAccount(
  ctx: AccountContext,
  user: AuthUser,
  input: { confirm: string; hard?: boolean | undefined },
  now = new Date(),
): Promise<void> {
  if (input.hard) throw forbidden(PROFILE_MESSAGES.hardDelete);
  if (input.confirm.trim() !== DELETE_CONFIRMATION_WORD) throw badRequest(DELETE_CONFIRMATION_MESSAGE);
  const uploads = await ctx.db.transaction(async (tx) => {
    const profile = await profiles.anonymiseProfile(tx, user.id, now);
    if (!profile) throw unauthorized(NOT_AUTHENTICATED);
    await identity.deleteAccount(tx, user.id);
    await identity.deleteUserFactors(tx, user.id);
    await sessions.endAllSessions(tx, ctx.sessionCache, user.id, now);
    await erasure.deleteSessions(tx, user.id);
    await erasure.deletePointsHistory(tx, user.id);
    await erasure.deleteNotificationsTo(tx, user.id);
    await erasure.deleteFollows(tx, user.id);
    await erasure.deleteMutesAndBlocks(tx, user.id);
    await erasure.scrubVotes(tx, user.id);
    await erasure.scrubPageViews(tx, user.id);
    return erasure.deleteUnusedUploads(tx, user.id);
  });
  if (uploads.length > 0) {
    // What this misses (a crash right here), the worker's media.gc removes later: no row names them.
    await ctx.media.discard(uploads).catch((err: unknown) => ctx.log.warn({ err }, 'removing the files of a deleted account failed'));
  }
}
