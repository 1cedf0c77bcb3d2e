// Cookie sessions: resolution, rolling refresh, expiry, sign-out, the session endpoint.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase } from '../../../../test/support/db.ts';
import { testConfig } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { devLogin, sessionCookieOf, signIn, waitForSessionEviction, XHR } from '../../../../test/support/server/sessions.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, SESSION_MAX_LIFETIME_MS, SESSION_REFRESH_THRESHOLD_MS, SESSION_TTL_MS } from './constants.ts';
import { elevateSession, resolveSession } from './service.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('sessions', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const sessionRow = async (id: string) => (await database.db.select().from(schema.sessions).where(eq(schema.sessions.id, id)))[0]!;
  /** Moves the expiry behind the app's back, then waits for the NOTIFY that evicts the cached session. */
  const setExpiry = async (id: string, expiresAt: Date) => {
    await database.db.update(schema.sessions).set({ expiresAt }).where(eq(schema.sessions.id, id));
    await waitForSessionEviction(app, id);
  };

  it('stores only the SHA-256 of the cookie token, with the user agent, for 14 days', async () => {
    const user = await buildUser(database.db);
    const { token, sessionId } = await signIn(app, user);
    expect(sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionId).not.toContain(token);
    const row = await sessionRow(sessionId);
    expect(row).toMatchObject({ userId: user.id, level: 'aal1', mfaPending: false, revokedAt: null, userAgent: 'tribuna-test' });
    expect(Math.abs(row.expiresAt.getTime() - (Date.now() + SESSION_TTL_MS))).toBeLessThan(60_000);
    expect(SESSION_TTL_MS).toBe(14 * DAY);
    expect(SESSION_REFRESH_THRESHOLD_MS).toBe(7 * DAY);
  });

  it('GET /api/me answers the signed-in profile, role included', async () => {
    const user = await buildUser(database.db, { role: 'moderator', displayName: 'Moderadora', bio: 'Hola' });
    const res = await get('/api/me', (await signIn(app, user)).cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      id: user.id,
      displayName: 'Moderadora',
      username: user.username,
      bio: 'Hola',
      avatarUrl: null,
      bannerUrl: null,
      role: 'moderator',
      isSuspended: false,
      totalPoints: 0,
      showInVoterLists: true,
      createdAt: user.createdAt.toISOString(),
      silencedUntil: null,
    });
  });

  it('GET /api/auth/session says signed_out, signed_in (with the profile) or mfa_required, never 401', async () => {
    const visitor = await get('/api/auth/session');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ status: 'signed_out', user: null, factorId: null });

    const user = await buildUser(database.db);
    const full = await get('/api/auth/session', (await signIn(app, user)).cookie);
    expect(full.json()).toMatchObject({ status: 'signed_in', user: { id: user.id, role: 'user' }, factorId: null, email: null });
    // The user's own e-mail comes with their session (the admin header shows it).
    await database.db
      .insert(schema.accounts)
      .values({ userId: user.id, email: 'fan@example.com', oidcIssuer: 'https://issuer.test', oidcSubject: `sub-${user.id}` });
    expect((await get('/api/auth/session', (await signIn(app, user)).cookie)).json()).toMatchObject({ status: 'signed_in', email: 'fan@example.com' });

    const [factor] = await database.db.insert(schema.authFactors).values({ userId: user.id, secret: 'JBSWY3DPEHPK3PXP', status: 'verified' }).returning();
    const pending = await signIn(app, user, { mfaPending: true });
    expect((await get('/api/auth/session', pending.cookie)).json()).toEqual({
      status: 'mfa_required',
      user: null,
      factorId: factor!.id,
    });
    // Until the code is entered, the session is signed out for everything else.
    expect((await get('/api/me', pending.cookie)).statusCode).toBe(401);
  });

  it('extends a session with less than 7 days left to a full 14 days and re-sets the cookie', async () => {
    const user = await buildUser(database.db);
    const { cookie, sessionId, token } = await signIn(app, user);

    // Plenty of time left: no write, no cookie.
    const quiet = await get('/api/me', cookie);
    expect(quiet.statusCode).toBe(200);
    expect(sessionCookieOf(quiet)).toBeNull();

    await setExpiry(sessionId, new Date(Date.now() + 2 * DAY));
    const refreshed = await get('/api/me', cookie);
    expect(refreshed.statusCode).toBe(200);
    const reset = sessionCookieOf(refreshed);
    expect(reset).not.toBeNull();
    expect(reset!.value).toBe(token);
    expect(Number(reset!.attributes['max-age'])).toBeGreaterThan((SESSION_TTL_MS - 60_000) / 1000);
    expect(reset!.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
    const row = await sessionRow(sessionId);
    expect(Math.abs(row.expiresAt.getTime() - (Date.now() + SESSION_TTL_MS))).toBeLessThan(60_000);
  });

  it('treats an expired session as signed out (401) and clears its cookie', async () => {
    const user = await buildUser(database.db);
    const { cookie, sessionId } = await signIn(app, user);
    await setExpiry(sessionId, new Date(Date.now() - 1000));
    const res = await get('/api/me', cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('User not authenticated');
    const cleared = sessionCookieOf(res);
    expect(cleared?.value).toBe('');
    expect((await get('/api/auth/session', cookie)).json().status).toBe('signed_out');
  });

  it('refuses a session signed in 30 days ago even when it was used every day, and clears its cookie', async () => {
    expect(SESSION_MAX_LIFETIME_MS).toBe(30 * DAY);
    const user = await buildUser(database.db);
    const { cookie, sessionId } = await signIn(app, user);
    // Used today, refreshed yesterday (expires in 13 days), but signed in 30 days and a minute ago.
    const now = Date.now();
    await database.db
      .update(schema.sessions)
      .set({ createdAt: new Date(now - 30 * DAY - 60_000), lastSeenAt: new Date(now), expiresAt: new Date(now + 13 * DAY) })
      .where(eq(schema.sessions.id, sessionId));
    const res = await get('/api/me', cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('User not authenticated');
    expect(sessionCookieOf(res)?.value).toBe('');
    expect((await get('/api/auth/session', cookie)).json().status).toBe('signed_out');
  });

  it('never extends a session past 30 days after its sign-in, and stops refreshing it there', async () => {
    const user = await buildUser(database.db);
    const { cookie, sessionId } = await signIn(app, user);
    const signedInAt = new Date(Date.now() - 25 * DAY);
    await database.db
      .update(schema.sessions)
      .set({ createdAt: signedInAt, expiresAt: new Date(Date.now() + 2 * DAY) })
      .where(eq(schema.sessions.id, sessionId));

    const refreshed = await get('/api/me', cookie);
    expect(refreshed.statusCode).toBe(200);
    const end = signedInAt.getTime() + SESSION_MAX_LIFETIME_MS;
    // Extended to the end of its lifetime (5 days from now), not to a full 14 days.
    expect((await sessionRow(sessionId)).expiresAt.getTime()).toBe(end);
    const reset = sessionCookieOf(refreshed)!;
    expect(new Date(reset.attributes.expires as string).getTime()).toBe(Math.floor(end / 1000) * 1000);
    expect(Number(reset.attributes['max-age'])).toBeLessThanOrEqual((5 * DAY) / 1000);

    // Less than 7 days left, but nothing left to extend: no write, no cookie.
    const again = await get('/api/me', cookie);
    expect(again.statusCode).toBe(200);
    expect(sessionCookieOf(again)).toBeNull();
    expect((await sessionRow(sessionId)).expiresAt.getTime()).toBe(end);
  });

  it('refuses a session past its lifetime even while it is in the session cache', async () => {
    const user = await buildUser(database.db);
    const { token, sessionId, session } = await signIn(app, user);
    const signedInAt = (await sessionRow(sessionId)).createdAt;
    expect(await resolveSession(app.sessionLookups, app.sessionCache, token, new Date(signedInAt.getTime() + DAY))).toMatchObject({
      session: { id: session.id },
    });
    expect(app.sessionCache.get(sessionId, signedInAt.getTime() + DAY)).not.toBeNull();
    expect(await resolveSession(app.sessionLookups, app.sessionCache, token, new Date(signedInAt.getTime() + SESSION_MAX_LIFETIME_MS))).toBeNull();
    expect(app.sessionCache.get(sessionId, signedInAt.getTime() + DAY)).toBeNull();
  });

  it('keeps the sign-in time when a second factor replaces the session: the lifetime is not restarted', async () => {
    const user = await buildUser(database.db);
    const pending = await signIn(app, user, { mfaPending: true });
    const signedInAt = new Date(Date.now() - 29 * DAY);
    await database.db.update(schema.sessions).set({ createdAt: signedInAt }).where(eq(schema.sessions.id, pending.sessionId));
    const resolved = await resolveSession(app.sessionLookups, app.sessionCache, pending.token);
    const elevated = await elevateSession(database.db, app.sessionCache, resolved!.session, {});
    const row = await sessionRow(elevated.id);
    expect(row.createdAt.getTime()).toBe(signedInAt.getTime());
    expect(elevated.expiresAt.getTime()).toBe(signedInAt.getTime() + SESSION_MAX_LIFETIME_MS);
  });

  it('names the cookie tribuna_session over plain http (development), without the __Host- prefix', async () => {
    const res = await devLogin(app, { displayName: 'Local' });
    expect(res.statusCode).toBe(200);
    expect(sessionCookieOf(res)).toMatchObject({ name: SESSION_COOKIE, attributes: { path: '/', httponly: true } });
    expect(sessionCookieOf(res)!.attributes.secure).toBeUndefined();
  });

  it('treats an unknown or malformed cookie as a visitor', async () => {
    expect((await get('/api/me', 'tribuna_session=not-a-token')).statusCode).toBe(401);
    expect((await get('/api/me', `tribuna_session=${'A'.repeat(43)}`)).statusCode).toBe(401);
    expect((await get('/api/polls', `tribuna_session=${'A'.repeat(43)}`)).statusCode).toBe(200);
  });

  it('POST /auth/logout revokes the session and clears the cookie; the old cookie stops working', async () => {
    const user = await buildUser(database.db);
    const { cookie, sessionId } = await signIn(app, user);
    const other = await signIn(app, user);

    const res = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, ...XHR } });
    expect(res.statusCode).toBe(204);
    const cleared = sessionCookieOf(res)!;
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toMatchObject({ path: '/' });
    expect((await sessionRow(sessionId)).revokedAt).toBeInstanceOf(Date);
    expect((await get('/api/me', cookie)).statusCode).toBe(401);
    // Only this browser is signed out.
    expect((await get('/api/me', other.cookie)).statusCode).toBe(200);
  });

  it('POST /auth/logout without a session is fine (204)', async () => {
    const res = await app.inject({ method: 'POST', url: '/auth/logout', headers: XHR });
    expect(res.statusCode).toBe(204);
  });

  it('records page views of a signed-in user with their id', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { cookie, ...XHR },
      payload: { path: '/wall', referrer: null, sessionId: 'sess_abc12345', deviceType: 'desktop' },
    });
    expect(res.statusCode).toBe(204);
    const [view] = await database.db.select().from(schema.pageViews);
    expect(view!.userId).toBe(user.id);
  });
});

describe('session cookie on an https site', () => {
  let app: App;
  let database: Database;
  useTestApp({ PUBLIC_URL: 'https://tribuna.example', DEV_LOGIN: '1' }, (ready) => ({ app, database } = ready));

  it('is __Host-tribuna_session: Secure, HttpOnly, SameSite=Lax, Path=/, no Domain', async () => {
    const res = await devLogin(app, { displayName: 'Segura' });
    expect(res.statusCode).toBe(200);
    const cookie = sessionCookieOf(res)!;
    expect(cookie.name).toBe(SECURE_SESSION_COOKIE);
    expect(SECURE_SESSION_COOKIE).toBe('__Host-tribuna_session');
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toMatchObject({ secure: true, httponly: true, samesite: 'Lax', path: '/' });
    expect(cookie.attributes.domain).toBeUndefined();
  });

  it('reads the session from __Host-tribuna_session only, and clears that name', async () => {
    const user = await buildUser(database.db);
    const { token } = await signIn(app, user);
    const me = (cookie: string) => app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect((await me(`${SECURE_SESSION_COOKIE}=${token}`)).statusCode).toBe(200);
    // The plain name could be set by a subdomain or an http page: not read on an https site.
    expect((await me(`${SESSION_COOKIE}=${token}`)).statusCode).toBe(401);

    const out = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: `${SECURE_SESSION_COOKIE}=${token}`, ...XHR } });
    expect(out.statusCode).toBe(204);
    expect(sessionCookieOf(out)).toMatchObject({ name: SECURE_SESSION_COOKIE, value: '', attributes: { secure: true, path: '/' } });
  });
});

describe('session cache', () => {
  it('forgets a cached session when its revocation commits elsewhere (PostgreSQL NOTIFY)', async () => {
    const app = await buildApp(testConfig());
    const database = testDatabase();
    try {
      const user = await buildUser(database.db);
      const { cookie, sessionId } = await signIn(app, user);
      expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);
      expect(app.sessionCache.get(sessionId, Date.now())).not.toBeNull();
      // Another instance (here: plain SQL) revokes it; this process hears about it at commit.
      await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, sessionId));
      await waitForSessionEviction(app, sessionId);
      expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(401);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
