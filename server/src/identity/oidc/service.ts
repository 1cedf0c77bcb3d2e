import type { DbOrTx } from '@tribuna/drizzle/client';
import * as accounts from '../accounts/repository.ts';
import { displayNameFrom, usernameBase } from '../profiles/names.ts';
import * as profiles from '../profiles/service.ts';
import { createProfile } from '../profiles/service.ts';
import type { OidcIdentity } from './idToken.ts';

const EMAIL_MAX = 320;
const AVATAR_URL_MAX = 2048;

export interface SignInResult {
  userId: string;
  /** True on the first sign-in of this identity (a profile was created). */
  created: boolean;
}

/** Only an https picture URL becomes the avatar. */
export function avatarFrom(picture: string | null): string | null {
  if (!picture || picture.length > AVATAR_URL_MAX) return null;
  try {
    return new URL(picture).protocol === 'https:' ? picture : null;
  } catch {
    return null;
  }
}

function emailFrom(email: string | null): string | null {
  return email && email.length <= EMAIL_MAX ? email : null;
}

/** A verified e-mail on ADMIN_EMAILS makes its owner an admin; an unverified one never does. */
export function grantsAdmin(identity: Pick<OidcIdentity, 'email' | 'emailVerified'>, adminEmails: readonly string[]): boolean {
  return identity.emailVerified && identity.email !== null && adminEmails.includes(identity.email.toLowerCase());
}

/**
 * Finds or creates the profile of a verified identity, in one transaction serialised per identity
 * (an advisory lock on issuer + subject): two racing first sign-ins create exactly one profile.
 * The e-mail and its verification are refreshed on every sign-in, and so is the ADMIN_EMAILS grant.
 */
export async function signInWithIdentity(db: DbOrTx, identity: OidcIdentity, adminEmails: readonly string[], now = new Date()): Promise<SignInResult> {
  const email = emailFrom(identity.email);
  return db.transaction(async (tx) => {
    await accounts.lockIdentity(tx, identity.issuer, identity.subject);
    const existing = await accounts.findAccountByIdentity(tx, identity.issuer, identity.subject);
    let userId: string;
    if (existing) {
      userId = existing.userId;
      await accounts.recordSignIn(tx, userId, { email, emailVerified: identity.emailVerified, lastSignInAt: now });
    } else {
      const profile = await createProfile(tx, {
        displayName: displayNameFrom(identity.name, identity.email),
        avatarUrl: avatarFrom(identity.picture),
        usernameBase: usernameBase(identity.name, identity.email),
      });
      const account = await accounts.insertAccount(tx, {
        userId: profile.id,
        email,
        emailVerified: identity.emailVerified,
        oidcIssuer: identity.issuer,
        oidcSubject: identity.subject,
        lastSignInAt: now,
      });
      // Unreachable behind the lock; if it ever happens, the transaction is rolled back.
      if (!account) throw new Error('identity was claimed by a concurrent sign-in');
      userId = profile.id;
    }
    if (grantsAdmin({ email, emailVerified: identity.emailVerified }, adminEmails)) {
      await profiles.setRole(tx, userId, 'admin', now);
    }
    return { userId, created: !existing };
  });
}
