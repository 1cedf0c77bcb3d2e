// Development sign-in (DEV_LOGIN).
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildUser } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { devLogin, sessionCookieHeader, signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { useApp, useListeningTestApp, useTestApp } from '../../../../test/support/server/harness.ts';
import { DEV_LOGIN_LOCAL_ONLY_MESSAGE } from './routes.ts';

describe('development sign-in (DEV_LOGIN on)', () => {
  let app: App;
  let database: Database;
  useTestApp({ DEV_LOGIN: '1' }, (ready) => ({ app, database } = ready));

  const login = (payload: unknown, headers: Record<string, string> = {}) => devLogin(app, payload, headers);

  it('lists demo users, admins first then by name, at most 50', async () => {
    await buildUser(database.db, { displayName: 'beto' });
    await buildUser(database.db, { displayName: 'Zoe', role: 'admin' });
    await buildUser(database.db, { displayName: 'Ana', role: 'moderator' });
    const res = await app.inject({ method: 'GET', url: '/api/auth/dev/users' });
    expect(res.statusCode).toBe(200);
    const { users } = res.json<{ users: { displayName: string; role: string }[] }>();
    expect(users.map((u) => u.displayName)).toEqual(['Zoe', 'Ana', 'beto']);
    expect(users[0]).toEqual({
      id: expect.any(String),
      displayName: 'Zoe',
      username: expect.stringMatching(/^fan_/),
      avatarUrl: null,
      role: 'admin',
    });

    for (let i = 0; i < 50; i++) await buildUser(database.db);
    const many = await app.inject({ method: 'GET', url: '/api/auth/dev/users' });
    expect(many.json().users).toHaveLength(50);
  });

  it('signs in as an existing user with a full session', async () => {
    const user = await buildUser(database.db, { role: 'admin' });
    const res = await login({ userId: user.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'signed_in', user: { id: user.id, role: 'admin' }, factorId: null });
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieHeader(res) } });
    expect(me.json().id).toBe(user.id);
  });

  it('creates a new user from a display name, with a generated username and a dev account', async () => {
    const res = await login({ displayName: '  Señora Fan  ' });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({ displayName: 'Señora Fan', username: 'senora_fan', role: 'user' });
    const [account] = await database.db.select().from(schema.accounts).where(eq(schema.accounts.userId, user.id));
    expect(account).toMatchObject({ oidcIssuer: 'dev', email: null, emailVerified: false });
    expect(account!.oidcSubject).toMatch(/^[0-9a-f-]{36}$/);

    const again = await login({ displayName: 'Señora Fan' });
    expect(again.json().user.username).toMatch(/^senora_fan\d{3}$/);
  });

  it('replaces the session the browser already had', async () => {
    const user = await buildUser(database.db);
    const old = await signIn(app, user);
    const res = await login({ userId: user.id }, { cookie: old.cookie });
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: old.cookie } })).statusCode).toBe(401);
  });

  it('answers 404 for an unknown user and 400 for a malformed body', async () => {
    const unknown = await login({ userId: '123e4567-e89b-42d3-a456-426614174000' });
    expect(unknown.statusCode).toBe(404);
    expect((await login({})).statusCode).toBe(400);
    expect((await login({ displayName: '' })).statusCode).toBe(400);
    expect((await login({ displayName: 'x'.repeat(51) })).statusCode).toBe(400);
    expect((await login({ userId: 'nope' })).statusCode).toBe(400);
  });

  it.each([
    ['NUL', '\u0000'],
    ['a C0 control', '\u001b'],
    ['a lone surrogate', '\ud83d'],
  ])('refuses a display name with %s (400) and creates nobody', async (_, bad) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/dev/login',
      headers: { ...XHR, 'content-type': 'application/json' },
      payload: JSON.stringify({ displayName: `Ana${bad}` }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body/displayName must not contain control characters or invalid Unicode');
    expect(await database.db.select().from(schema.profiles)).toHaveLength(0);
    expect(await database.db.select().from(schema.sessions)).toHaveLength(0);
  });
});

describe('development sign-in (DEV_LOGIN off)', () => {
  let app: App;
  useApp({ DEV_LOGIN: '0' }, (built) => (app = built));

  it('answers 404 on both routes', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/dev/users' })).statusCode).toBe(404);
    const res = await devLogin(app, { displayName: 'Intrusa' });
    expect(res.statusCode).toBe(404);
  });
});

describe('development sign-in on a public address (DEV_LOGIN unset)', () => {
  let app: App;
  let database: Database;
  // What a PaaS or a VM runs: no NODE_ENV (so development) or a test one, and a public PUBLIC_URL.
  for (const nodeEnv of [undefined, 'development', 'test']) {
    describe(`NODE_ENV=${nodeEnv ?? '(unset)'}`, () => {
      useTestApp({ NODE_ENV: nodeEnv, PUBLIC_URL: 'https://tribuna.example', DEV_LOGIN: undefined }, (ready) => ({ app, database } = ready));

      it('is off: 404 on both routes, no user and no session created, and /api/site says so', async () => {
        expect(app.config.nodeEnv).toBe(nodeEnv ?? 'development');
        expect(app.config.devLogin).toBe(false);
        await buildUser(database.db, { role: 'admin' });

        const users = await app.inject({ method: 'GET', url: '/api/auth/dev/users' });
        expect(users.statusCode).toBe(404);
        expect(users.body).not.toContain('admin');

        const admin = (await database.db.select().from(schema.profiles))[0]!;
        for (const payload of [{ displayName: 'Intrusa' }, { userId: admin.id }]) {
          const res = await devLogin(app, payload);
          expect(res.statusCode).toBe(404);
          expect(res.headers['set-cookie']).toBeUndefined();
        }
        expect(await database.db.select().from(schema.profiles)).toHaveLength(1);
        expect(await database.db.select().from(schema.sessions)).toHaveLength(0);

        const site = await app.inject({ method: 'GET', url: '/api/site' });
        expect(site.statusCode).toBe(200);
        expect(site.json().devLogin).toBe(false);
      });
    });
  }
});

describe('development sign-in answers only this machine', () => {
  const refused = { statusCode: 403, error: 'Forbidden', message: DEV_LOGIN_LOCAL_ONLY_MESSAGE };
  const counts = async (database: Database) => ({
    profiles: (await database.db.select().from(schema.profiles)).length,
    sessions: (await database.db.select().from(schema.sessions)).length,
  });

  describe('on every interface (HOST=0.0.0.0 overriding the loopback default)', () => {
    let app: App;
    let database: Database;
    let port: number;
    /** A non-loopback address of this machine: a connection to it comes from it, as another host's would. */
    let outside: string;
    useTestApp(
      () => {
        const found = Object.values(networkInterfaces())
          .flat()
          .find((entry) => entry !== undefined && !entry.internal && entry.family === 'IPv4');
        if (!found) throw new Error('this test needs a network interface with a non-loopback IPv4 address, and this machine has none');
        outside = found.address;
        return { DEV_LOGIN: '1', HOST: '0.0.0.0', ALLOWED_HOSTS: `localhost,127.0.0.1,${outside}` };
      },
      (ready) => ({ app, database } = ready),
    );
    beforeAll(async () => {
      await app.listen({ host: app.config.host, port: 0 });
      port = (app.server.address() as AddressInfo).port;
    });

    const login = (address: string) =>
      fetch(`http://${address}:${port}/api/auth/dev/login`, {
        method: 'POST',
        headers: { ...XHR, 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'Ana' }),
      });

    it('refuses a peer with a non-loopback address on both routes (403), and writes nothing', async () => {
      await buildUser(database.db, { role: 'admin' });
      const users = await fetch(`http://${outside}:${port}/api/auth/dev/users`);
      expect(users.status).toBe(403);
      expect(await users.json()).toEqual(refused);

      const res = await login(outside);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(refused);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await counts(database)).toEqual({ profiles: 1, sessions: 0 });

      // The same server answers a loopback peer.
      expect((await fetch(`http://127.0.0.1:${port}/api/auth/dev/users`)).status).toBe(200);
      expect((await login('127.0.0.1')).status).toBe(200);
      expect(await counts(database)).toEqual({ profiles: 2, sessions: 1 });
    });
  });

  describe('behind a proxy named by TRUST_PROXY', () => {
    let database: Database;
    let baseUrl: string;
    useListeningTestApp({ DEV_LOGIN: '1', TRUST_PROXY: '127.0.0.1' }, (ready) => ({ database, baseUrl } = ready));

    const login = (forwardedFor: string) =>
      fetch(`${baseUrl}/api/auth/dev/login`, {
        method: 'POST',
        headers: { ...XHR, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ displayName: 'Ana' }),
      });

    it('refuses a client the proxy reports from another address (403), and writes nothing', async () => {
      // The last one: a client that wrote its own X-Forwarded-For, which the proxy appended to.
      for (const forwardedFor of ['203.0.113.9', '2001:db8::7', '::ffff:203.0.113.9', 'unknown', '127.0.0.1, 203.0.113.9']) {
        const res = await login(forwardedFor);
        expect(res.status, forwardedFor).toBe(403);
        expect(await res.json()).toEqual(refused);
        const users = await fetch(`${baseUrl}/api/auth/dev/users`, { headers: { 'x-forwarded-for': forwardedFor } });
        expect(users.status, forwardedFor).toBe(403);
      }
      expect(await counts(database)).toEqual({ profiles: 0, sessions: 0 });
    });

    it('accepts a client the proxy reports on loopback', async () => {
      for (const forwardedFor of ['127.0.0.1', '::1', '127.0.0.2']) expect((await login(forwardedFor)).status, forwardedFor).toBe(200);
      expect(await counts(database)).toEqual({ profiles: 3, sessions: 3 });
    });
  });

  describe('without TRUST_PROXY', () => {
    let app: App;
    let database: Database;
    useTestApp({ DEV_LOGIN: '1', TRUST_PROXY: undefined }, (ready) => ({ app, database } = ready));

    it('refuses a request a proxy relayed (its peer is loopback, its client unknown)', async () => {
      const relayed: Record<string, string>[] = [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }];
      for (const headers of relayed) {
        const res = await devLogin(app, { displayName: 'Ana' }, headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
        expect(res.json()).toEqual(refused);
      }
      expect(await counts(database)).toEqual({ profiles: 0, sessions: 0 });
      expect((await devLogin(app, { displayName: 'Ana' })).statusCode).toBe(200);
    });
  });
});
