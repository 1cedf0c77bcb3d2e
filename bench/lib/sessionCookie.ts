import { SECURE_SESSION_COOKIE } from '../../server/src/identity/sessions/constants.ts';

/**
 * A `cookie` header carrying a bench user's session, as the production server started by
 * startTribuna reads it: its PUBLIC_URL is https, so the cookie is `__Host-tribuna_session`.
 */
export function sessionCookie(token: string): string {
  return `${SECURE_SESSION_COOKIE}=${token}`;
}
