import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../../server/src/app-types.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../../server/src/identity/sessions/constants.ts';
import { sessionCookieName } from '../../../server/src/identity/sessions/cookies.ts';
import { startSession, type IssuedSession, type SessionLevel } from '../../../server/src/identity/sessions/service.ts';

/** The header every mutation of the web client carries (see http/csrf.ts). */
export const XHR = { 'x-requested-with': 'tribuna' } as const;

export interface SignedIn {
  /** `tribuna_session=<token>` (`__Host-tribuna_session` for an https app), ready for a `cookie` header. */
  cookie: string;
  token: string;
  /** sessions.id (the SHA-256 of the token). */
  sessionId: string;
  session: IssuedSession;
}

export interface SignInOptions {
  level?: SessionLevel;
  /** A sign-in still owing its second factor. */
  mfaPending?: boolean;
}

/**
 * A real session row for `user`, as a sign-in would create it, without going through Google:
 * `app.inject({ headers: { cookie: (await signIn(app, user)).cookie } })`.
 */
export async function signIn(app: App, user: { id: string }, options: SignInOptions = {}): Promise<SignedIn> {
  const session = await startSession(app.database.db, {
    userId: user.id,
    mfaPending: options.mfaPending ?? false,
    level: options.level ?? 'aal1',
    userAgent: 'tribuna-test',
  });
  return { cookie: `${sessionCookieName(app.config.publicUrl)}=${session.token}`, token: session.token, sessionId: session.id, session };
}

/** Headers for a cookie-authenticated mutation as the web client sends it. */
export function asUser(signedIn: Pick<SignedIn, 'cookie'>): Record<string, string> {
  return { cookie: signedIn.cookie, ...XHR };
}

/** POST /api/auth/dev/login (DEV_LOGIN) as the web client sends it, plus `headers`. */
export function devLogin(app: App, payload: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/auth/dev/login', headers: { ...XHR, ...headers }, payload: payload as object });
}

export interface ParsedSetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** Parses Set-Cookie header values (attribute names lower-cased). */
export function parseSetCookies(values: string[] | string | undefined): ParsedSetCookie[] {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  return list.map((line) => {
    const [pair = '', ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const part of rest) {
      const [key = '', ...value] = part.trim().split('=');
      attributes[key.toLowerCase()] = value.length > 0 ? value.join('=') : true;
    }
    return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
  });
}

/** The session cookie an injected response sets, by either name (null when it sets none). */
export function sessionCookieOf(res: LightMyRequestResponse): ParsedSetCookie | null {
  return (
    parseSetCookies(res.headers['set-cookie'] as string[] | string | undefined).find((c) => c.name === SESSION_COOKIE || c.name === SECURE_SESSION_COOKIE) ??
    null
  );
}

/** `tribuna_session=<token>` from a response that opened a session; throws when there is none. */
export function sessionCookieHeader(res: LightMyRequestResponse): string {
  const cookie = sessionCookieOf(res);
  if (!cookie || cookie.value === '') throw new Error(`response set no session cookie (status ${res.statusCode})`);
  return `${cookie.name}=${cookie.value}`;
}

/**
 * Waits until `app` no longer holds `sessionId` in its session cache — i.e. until the PostgreSQL
 * NOTIFY of a change made behind the app's back (a test's direct UPDATE) arrived.
 */
export async function waitForSessionEviction(app: Pick<App, 'sessionCache'>, sessionId: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (app.sessionCache.get(sessionId, Date.now()) !== null) {
    if (Date.now() > deadline) throw new Error(`session ${sessionId} still cached after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
