import type { Db } from '@tribuna/drizzle/client';
import { buildUser } from '../factories.ts';
import type { App } from '../../../server/src/app-types.ts';
import { signIn, type SignedIn } from './sessions.ts';

/** Every kind of signed-in caller a route may meet (visitors carry no cookie at all). */
export const CALLER_KINDS = ['fan', 'suspendedFan', 'moderator', 'admin', 'adminAal2', 'suspendedAdmin', 'mfaPending'] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export interface Caller {
  user: { id: string };
  session: SignedIn;
}

/**
 * One user and one live session of each kind: a fan, a suspended fan, a moderator, an admin signed
 * in with one factor (aal1) and one verified with the second (aal2), a suspended admin (aal2: only
 * the suspension holds back their powers), and a sign-in still owing its second factor.
 */
export async function signInCallers(app: App, db: Db): Promise<Record<CallerKind, Caller>> {
  const make = async (overrides: Parameters<typeof buildUser>[1], options: Parameters<typeof signIn>[2] = {}): Promise<Caller> => {
    const user = await buildUser(db, overrides);
    return { user, session: await signIn(app, user, options) };
  };
  const [fan, suspendedFan, moderator, admin, adminAal2, suspendedAdmin, mfaPending] = await Promise.all([
    make({}),
    make({ isSuspended: true }),
    make({ role: 'moderator' }),
    make({ role: 'admin' }),
    make({ role: 'admin' }, { level: 'aal2' }),
    make({ role: 'admin', isSuspended: true }, { level: 'aal2' }),
    make({}, { mfaPending: true }),
  ]);
  return { fan, suspendedFan, moderator, admin, adminAal2, suspendedAdmin, mfaPending };
}
