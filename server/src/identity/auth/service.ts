import type { AuthSession } from '@tribuna/contracts/api/auth';
import type { DbOrTx } from '@tribuna/drizzle/client';
import * as accounts from '../accounts/repository.ts';
import * as factors from '../factors/repository.ts';
import * as profiles from '../profiles/service.ts';
import type { SessionCache } from '../sessions/cache.ts';
import * as sessions from '../sessions/service.ts';
import type { IssuedSession } from '../sessions/service.ts';
import { SIGNED_OUT, presentMfaRequired, presentSignedIn } from './presenter.ts';

/** Where a request comes from, stored on the session for the user's own review. */
export interface ClientContext {
  userAgent?: string | undefined;
  ip?: string | undefined;
  /** The session the browser held before signing in again: it is replaced, not kept alongside. */
  previousSessionId?: string | null | undefined;
}

/**
 * Opens a session for a user who has just proved who they are (Google or the dev form). When the
 * user has a verified second factor the session starts mfa-pending: signed out for every guard
 * until a code completes it. The browser's previous session ends (and leaves `cache`).
 */
export async function openSession(db: DbOrTx, cache: SessionCache, userId: string, context: ClientContext, now = new Date()): Promise<IssuedSession> {
  const factor = await factors.findVerifiedFactor(db, userId);
  if (context.previousSessionId) await sessions.endSession(db, cache, context.previousSessionId, now);
  return sessions.startSession(db, { userId, mfaPending: factor !== null, userAgent: context.userAgent, ip: context.ip }, now);
}

/** GET /api/auth/session: where this browser stands in the sign-in flow. */
export async function describeSession(db: DbOrTx, session: { userId: string; mfaPending: boolean } | null): Promise<AuthSession> {
  if (!session) return SIGNED_OUT;
  if (session.mfaPending) {
    const factor = await factors.findVerifiedFactor(db, session.userId);
    return presentMfaRequired(factor?.id ?? null);
  }
  const [profile, account] = await Promise.all([profiles.findProfile(db, session.userId), accounts.findAccount(db, session.userId)]);
  return profile ? presentSignedIn(profile, account?.email ?? null) : SIGNED_OUT;
}

/** POST /auth/logout: the session stops working at once, wherever its cookie is. */
export async function signOut(db: DbOrTx, cache: SessionCache, sessionId: string | null): Promise<void> {
  if (sessionId) await sessions.endSession(db, cache, sessionId);
}
