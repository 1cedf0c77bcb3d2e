import type { AuthSession } from '@tribuna/contracts/api/auth';
import type { ProfileRow } from '../profiles/service.ts';
import { presentProfile } from '../profiles/presenter.ts';

export const SIGNED_OUT: AuthSession = { status: 'signed_out', user: null, factorId: null };

export function presentSignedIn(profile: ProfileRow, email?: string | null): AuthSession {
  return { status: 'signed_in', user: presentProfile(profile), factorId: null, ...(email === undefined ? {} : { email }) };
}

/** A sign-in owing its second factor: no profile yet, only the factor to challenge. */
export function presentMfaRequired(factorId: string | null): AuthSession {
  return { status: 'mfa_required', user: null, factorId };
}
