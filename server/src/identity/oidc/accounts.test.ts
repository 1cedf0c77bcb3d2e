// What a Google sign-in does to profiles and accounts: first sign-in, names, e-mail verification,
// ADMIN_EMAILS, racing callbacks, suspended users, key rotation.
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { FastifyPluginAsync } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../../app.ts';
import { requireWriter } from '../plugin.ts';
import {
  authorizeAtProvider,
  finishGoogleFlow,
  googleSignIn,
  MockOidcProvider,
  startGoogleFlow,
  useOidcTestApp,
} from '../../../../test/support/server/oidc.ts';
import { insertTotpFactor } from '../../../../test/support/server/factors.ts';
import { sessionCookieHeader, XHR } from '../../../../test/support/server/sessions.ts';

/** A throwaway write route behind the real hooks: no content route exists yet in this issue. */
const writeRoute: FastifyPluginAsync = async (app) => {
  // Not rate limited: a test route.
  app.post('/api/test/write', { config: { rateLimit: false } }, async (request) => {
    requireWriter(request);
    return { ok: true };
  });
};

describe('first and later Google sign-ins', () => {
  let provider: MockOidcProvider;
  let app: App;
  let baseUrl: string;
  let database: Database;
  useOidcTestApp({ ADMIN_EMAILS: 'jefa@tribuna.mx, otro@tribuna.mx' }, (ready) => ({ provider, app, baseUrl, database } = ready), {
    build: () => ({ extraRoutes: writeRoute }),
  });

  async function me(cookie: string | null) {
    const res = await app.inject({ method: 'GET', url: '/api/me', headers: cookie ? { cookie } : {} });
    return res;
  }

  it('creates the profile from the Google name and picture, with a username derived from the name', async () => {
    provider.nextIdToken({ name: '  María José Núñez-Peña  ', picture: 'https://lh3.googleusercontent.com/a/foto.jpg' });
    const flow = await googleSignIn(baseUrl);
    const profile = (await me(flow.sessionCookie)).json();
    expect(profile).toMatchObject({
      displayName: 'María José Núñez-Peña',
      username: 'maria_jose_nunez_pen',
      avatarUrl: 'https://lh3.googleusercontent.com/a/foto.jpg',
      bio: null,
      role: 'user',
      totalPoints: 0,
    });
  });

  it('cuts a long display name to 50 characters and keeps usernames within 3-20 of a-z 0-9 _', async () => {
    provider.nextIdToken({ name: 'Ñandú '.repeat(20) });
    const flow = await googleSignIn(baseUrl);
    const profile = (await me(flow.sessionCookie)).json();
    expect(Array.from(profile.displayName as string)).toHaveLength(50);
    expect(profile.displayName).toBe('Ñandú '.repeat(20).trim().slice(0, 50).trim());
    expect(profile.username).toMatch(/^[a-z0-9_]{3,20}$/);
    expect(profile.username).toBe('nandu_nandu_nandu_na');
  });

  it('appends digits when the username is taken, and falls back to the e-mail when the name gives nothing', async () => {
    provider.nextIdToken({ name: 'Luis' });
    const first = (await me((await googleSignIn(baseUrl)).sessionCookie)).json();
    provider.nextIdToken({ name: 'Luis' });
    const second = (await me((await googleSignIn(baseUrl)).sessionCookie)).json();
    expect(first.username).toBe('luis');
    expect(second.username).toMatch(/^luis\d{3}$/);

    provider.nextIdToken({ name: '🙂', email: 'fan.numero1@example.com' });
    const third = (await me((await googleSignIn(baseUrl)).sessionCookie)).json();
    expect(third).toMatchObject({ displayName: '🙂', username: 'fan_numero1' });

    provider.nextIdToken((token) => {
      delete token.payload.name;
      token.payload.email = 'yo@example.com';
    });
    const fourth = (await me((await googleSignIn(baseUrl)).sessionCookie)).json();
    expect(fourth).toMatchObject({ displayName: 'yo', username: 'yo_fan' });
  });

  it('ignores a picture that is not https', async () => {
    provider.nextIdToken({ picture: 'javascript:alert(1)' });
    const profile = (await me((await googleSignIn(baseUrl)).sessionCookie)).json();
    expect(profile.avatarUrl).toBeNull();
  });

  it('makes a verified e-mail listed in ADMIN_EMAILS an admin (case-insensitive), on every sign-in', async () => {
    provider.nextIdToken({ sub: 'jefa', email: 'Jefa@Tribuna.mx', email_verified: true });
    const first = await googleSignIn(baseUrl);
    expect((await me(first.sessionCookie)).json().role).toBe('admin');

    // Demoted in the back-office, then ADMIN_EMAILS applies again at the next sign-in.
    await database.db.update(schema.profiles).set({ role: 'user' });
    provider.nextIdToken({ sub: 'jefa', email: 'jefa@tribuna.mx', email_verified: true });
    const second = await googleSignIn(baseUrl);
    expect((await me(second.sessionCookie)).json().role).toBe('admin');
  });

  it('stores an unverified e-mail as unverified and never makes it an admin', async () => {
    provider.nextIdToken({ sub: 'impostora', email: 'jefa@tribuna.mx', email_verified: false });
    const flow = await googleSignIn(baseUrl);
    expect(flow.location).toBe('/auth/callback');
    expect((await me(flow.sessionCookie)).json().role).toBe('user');
    const [account] = await database.db.select().from(schema.accounts);
    expect(account).toMatchObject({ email: 'jefa@tribuna.mx', emailVerified: false });
  });

  it('refreshes the e-mail and its verification at every sign-in, but keeps an edited profile', async () => {
    provider.nextIdToken({ sub: 'cambia', email: 'viejo@example.com', name: 'Nombre Google' });
    const first = await googleSignIn(baseUrl);
    const { id } = (await me(first.sessionCookie)).json();
    await database.db.update(schema.profiles).set({ displayName: 'Mi nombre' }).where(eq(schema.profiles.id, id));

    provider.nextIdToken({ sub: 'cambia', email: 'nuevo@example.com', name: 'Otro Nombre' });
    const second = await googleSignIn(baseUrl);
    expect((await me(second.sessionCookie)).json()).toMatchObject({ id, displayName: 'Mi nombre' });
    const [account] = await database.db.select().from(schema.accounts);
    expect(account!.email).toBe('nuevo@example.com');
    expect(account!.lastSignInAt).toBeInstanceOf(Date);
  });

  it('creates exactly one profile when two first sign-ins of the same Google account race', async () => {
    for (let round = 0; round < 5; round++) {
      const subject = `carrera-${round}`;
      const [a, b] = await Promise.all([startGoogleFlow(baseUrl), startGoogleFlow(baseUrl)]);
      const [callbackA, callbackB] = await Promise.all([authorizeAtProvider(a.authorizeUrl), authorizeAtProvider(b.authorizeUrl)]);
      provider.nextIdToken({ sub: subject, name: 'Carrera' });
      provider.nextIdToken({ sub: subject, name: 'Carrera' });
      const [flowA, flowB] = await Promise.all([finishGoogleFlow(baseUrl, callbackA, a.jar), finishGoogleFlow(baseUrl, callbackB, b.jar)]);
      expect([flowA.location, flowB.location]).toEqual(['/auth/callback', '/auth/callback']);
      const [meA, meB] = await Promise.all([me(flowA.sessionCookie), me(flowB.sessionCookie)]);
      expect(meA.json().id).toBe(meB.json().id);
      const accounts = await database.db.select().from(schema.accounts).where(eq(schema.accounts.oidcSubject, subject));
      expect(accounts).toHaveLength(1);
    }
    expect(await database.db.select().from(schema.profiles)).toHaveLength(5);
  });

  it('lets a suspended user sign in again, but every write answers the Spanish 403', async () => {
    provider.nextIdToken({ sub: 'suspendido' });
    const before = await googleSignIn(baseUrl);
    const { id } = (await me(before.sessionCookie)).json();
    const write = (cookie: string | null) => app.inject({ method: 'POST', url: '/api/test/write', headers: { ...XHR, ...(cookie ? { cookie } : {}) } });
    expect((await write(before.sessionCookie)).statusCode).toBe(200);

    await database.db.update(schema.profiles).set({ isSuspended: true }).where(eq(schema.profiles.id, id));
    provider.nextIdToken({ sub: 'suspendido' });
    const after = await googleSignIn(baseUrl);
    expect(after.location).toBe('/auth/callback');
    expect((await me(after.sessionCookie)).json()).toMatchObject({ id, isSuspended: true });
    const refused = await write(after.sessionCookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Tu cuenta está suspendida. No puedes realizar esta acción.',
    });
    expect((await write(null)).statusCode).toBe(401);
  });

  it('opens a Google sign-in of a user with a verified second factor as mfa_required until a code completes it', async () => {
    provider.nextIdToken({ sub: 'con-totp' });
    const first = await googleSignIn(baseUrl);
    const { id } = (await me(first.sessionCookie)).json();
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const factor = await insertTotpFactor(database.db, app.config, { userId: id, secret });

    provider.nextIdToken({ sub: 'con-totp' });
    const second = await googleSignIn(baseUrl);
    expect(second.location).toBe('/auth/callback');
    const pending = second.sessionCookie!;
    expect((await me(pending)).statusCode).toBe(401);
    const state = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: pending } });
    expect(state.json()).toEqual({ status: 'mfa_required', user: null, factorId: factor.id });

    const challenge = await app.inject({
      method: 'POST',
      url: `/api/auth/factors/${factor.id}/challenge`,
      headers: { cookie: pending, ...XHR },
    });
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const verified = await app.inject({
      method: 'POST',
      url: `/api/auth/factors/${factor.id}/verify`,
      headers: { cookie: pending, ...XHR },
      payload: { challengeId: challenge.json().challengeId, code },
    });
    expect(verified.json()).toMatchObject({ status: 'signed_in', user: { id } });
    expect((await me(sessionCookieHeader(verified))).statusCode).toBe(200);
  });
});

describe('signing key rotation at the provider', () => {
  let provider: MockOidcProvider;
  let baseUrl: string;
  useOidcTestApp({}, (ready) => ({ provider, baseUrl } = ready));
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refetches the key set for an unknown kid, but not more than once per 30 seconds', async () => {
    // The key set is fetched and cached at the first sign-in.
    expect((await googleSignIn(baseUrl)).location).toBe('/auth/callback');

    // A new key: from now on the provider signs every id_token with it (round robin: the access
    // token takes the old key, the id_token the new one).
    const newKey = await provider.server.issuer.keys.generate('RS256');
    const refused = await googleSignIn(baseUrl);
    // Unknown kid right after a fetch: no refetch yet (cooldown), so the token cannot be checked.
    expect(refused.location).toBe('/auth/callback?error=1');

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    let signedWith: string | undefined;
    provider.nextIdToken((token) => {
      signedWith = token.header.kid as string;
    });
    const accepted = await googleSignIn(baseUrl);
    expect(signedWith).toBe(newKey.kid);
    expect(accepted.location).toBe('/auth/callback');
  });
});
