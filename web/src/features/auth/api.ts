import type { AuthSession } from '@tribuna/contracts/api/auth';
import { callApi } from '../../lib/api';

/** Google sign-in starts with a full-page navigation here; the server comes back to /auth/callback. */
export const GOOGLE_SIGN_IN_PATH = '/auth/google';

/** Demo users to act as; only answered when the site runs with DEV_LOGIN (404 otherwise). */
export const fetchDevUsers = (signal?: AbortSignal) => callApi('devUsers', { signal });

/** Development sign-in: as an existing demo user, or as a new one created with that name. */
export const devLogin = (input: { userId: string } | { displayName: string }) => callApi('devLogin', { body: input });

export const fetchFactors = () => callApi('listFactors');

/** Enrols a TOTP factor; it stays unverified until a first code is confirmed. */
export const enrolFactor = () => callApi('enrolFactor');

/** Removing a factor needs a current code from it. */
export const unenrolFactor = (factorId: string, code: string) => callApi('deleteFactor', { params: { id: factorId }, body: { code } });

/**
 * Checks a 6-digit code against a factor: a fresh challenge, then the verification. It confirms a
 * new factor and also completes a sign-in waiting for its second step. Errors carry the server's
 * message ('Código inválido', 'Demasiados intentos. Inténtalo más tarde.').
 */
export async function verifyFactorCode(factorId: string, code: string): Promise<AuthSession> {
  const { challengeId } = await callApi('factorChallenge', { params: { id: factorId } });
  return callApi('verifyFactor', { params: { id: factorId }, body: { challengeId, code } });
}
