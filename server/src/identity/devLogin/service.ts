import { randomUUID } from 'node:crypto';
import type { AuthSession, DevLoginInput, DevUserList } from '@tribuna/contracts/api/auth';
import type { DbOrTx } from '@tribuna/drizzle/client';
import * as accounts from '../accounts/repository.ts';
import { describeSession, openSession, type ClientContext } from '../auth/service.ts';
import { notFound } from '../../http/errors.ts';
import { displayNameFrom, usernameBase } from '../profiles/names.ts';
import * as profiles from '../profiles/service.ts';
import { createProfile } from '../profiles/service.ts';
import type { SessionCache } from '../sessions/cache.ts';
import type { IssuedSession } from '../sessions/service.ts';

export const DEV_USERS_LIMIT = 50;
/** accounts.oidc_issuer of users created through the development form. */
export const DEV_ISSUER = 'dev';
export const USER_NOT_FOUND = 'User not found';

export async function listDevUsers(db: DbOrTx): Promise<DevUserList> {
  return { users: await profiles.listProfilesForDevLogin(db, DEV_USERS_LIMIT) };
}

async function createDevUser(db: DbOrTx, displayName: string): Promise<string> {
  return db.transaction(async (tx) => {
    const profile = await createProfile(tx, {
      displayName: displayNameFrom(displayName),
      usernameBase: usernameBase(displayName),
    });
    await accounts.insertAccount(tx, {
      userId: profile.id,
      email: null,
      emailVerified: false,
      oidcIssuer: DEV_ISSUER,
      oidcSubject: randomUUID(),
      lastSignInAt: new Date(),
    });
    return profile.id;
  });
}

/**
 * POST /api/auth/dev/login: act as an existing user, or as a new one created with that name. The
 * session is a real one, second factor included: a user with a verified factor gets a sign-in
 * owing its code, exactly as with Google.
 */
export async function devLogin(
  db: DbOrTx,
  cache: SessionCache,
  input: DevLoginInput,
  context: ClientContext,
): Promise<{ authSession: AuthSession; issued: IssuedSession }> {
  let userId: string;
  if ('userId' in input) {
    const profile = await profiles.findProfile(db, input.userId);
    if (!profile) throw notFound(USER_NOT_FOUND);
    userId = profile.id;
  } else {
    userId = await createDevUser(db, input.displayName);
  }
  const issued = await openSession(db, cache, userId, context);
  return { authSession: await describeSession(db, { userId, mfaPending: issued.mfaPending }), issued };
}
