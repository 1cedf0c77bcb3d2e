// Second factor (TOTP) with real codes computed from the returned secret.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../../../../test/support/db.ts';
import { testConfig } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { MFA_PENDING_TTL_MS } from '../sessions/constants.ts';
import { totpCode, wrongTotpCodes } from '../../../../test/support/server/factors.ts';
import { sessionCookieHeader, signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { factorSecretAad, SecretBox } from './secretBox.ts';

const codeFor = totpCode;
const wrongCode = (secret: string) => wrongTotpCodes(secret)[0]!;

describe('TOTP second factor', () => {
  let app: App;
  let database: Database;

  beforeAll(async () => {
    app = await buildApp(testConfig({ DEV_LOGIN: '1' }));
    database = testDatabase();
  });
  beforeEach(async () => {
    await truncateAll(database);
    // Attempt counters live in Redis; each test starts with a clean slate.
    const keys = await app.redis.keys(app.redisKey('mfa', '*'));
    if (keys.length > 0) await app.redis.del(...keys);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, payload?: Record<string, string>) =>
    app.inject({ method, url, headers: { cookie, ...XHR }, ...(payload === undefined ? {} : { payload }) });

  async function enrol(cookie: string) {
    const res = await call('POST', '/api/auth/factors', cookie);
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string; uri: string; secret: string; qrCode: string }>();
  }

  async function challenge(cookie: string, factorId: string): Promise<string> {
    const res = await call('POST', `/api/auth/factors/${factorId}/challenge`, cookie);
    expect(res.statusCode).toBe(200);
    return res.json<{ challengeId: string }>().challengeId;
  }

  async function verify(cookie: string, factorId: string, code: string) {
    const challengeId = await challenge(cookie, factorId);
    return call('POST', `/api/auth/factors/${factorId}/verify`, cookie, { challengeId, code });
  }

  /** A user with a verified factor; returns its secret and a full aal2 session cookie. */
  async function userWithFactor() {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const factor = await enrol(cookie);
    const res = await verify(cookie, factor.id, codeFor(factor.secret));
    expect(res.statusCode).toBe(200);
    return { user, factor, cookie: sessionCookieHeader(res) };
  }

  const devLogin = (userId: string) => app.inject({ method: 'POST', url: '/api/auth/dev/login', headers: XHR, payload: { userId } });

  it('enrols a factor: otpauth URI (SHA1, 6 digits, 30 s, issuer Tribuna, username label), secret and SVG QR code', async () => {
    const user = await buildUser(database.db, { username: 'ana_fan' });
    const { cookie } = await signIn(app, user);
    const factor = await enrol(cookie);
    expect(factor.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.uri).toMatch(/^otpauth:\/\/totp\/Tribuna:ana_fan\?/);
    const uri = new URL(factor.uri);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      issuer: 'Tribuna',
      secret: factor.secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(factor.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(factor.qrCode.split(',')[1]!, 'base64').toString('utf8')).toContain('<svg');

    const list = await call('GET', '/api/auth/factors', cookie);
    expect(list.json()).toEqual({
      factors: [{ id: factor.id, factorType: 'totp', status: 'unverified', createdAt: expect.any(String) }],
    });
  });

  it('stores only the encrypted secret (AES-256-GCM, bound to the factor), never the plaintext', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const factor = await enrol(cookie);
    const [row] = await database.db.select().from(schema.authFactors).where(eq(schema.authFactors.id, factor.id));
    expect(row!.secret).toMatch(/^v1:[0-9a-f]{8}:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(row!.secret).not.toContain(factor.secret);
    expect(SecretBox.fromConfig(app.config).open(row!.secret, factorSecretAad(row!))).toBe(factor.secret);
    // The list never shows it either.
    expect((await call('GET', '/api/auth/factors', cookie)).body).not.toContain(factor.secret.slice(0, 8));
  });

  it('keeps one unverified factor at a time: a new enrolment replaces the older one', async () => {
    const { cookie } = await signIn(app, await buildUser(database.db));
    const first = await enrol(cookie);
    const second = await enrol(cookie);
    const { factors } = (await call('GET', '/api/auth/factors', cookie)).json<{ factors: { id: string }[] }>();
    expect(factors.map((f) => f.id)).toEqual([second.id]);
    expect(second.id).not.toBe(first.id);
  });

  it('confirms a factor with a correct code: verified, and the session is replaced by an aal2 one', async () => {
    const user = await buildUser(database.db);
    const before = await signIn(app, user);
    const factor = await enrol(before.cookie);

    const res = await verify(before.cookie, factor.id, codeFor(factor.secret));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'signed_in', user: { id: user.id }, factorId: null });
    const after = sessionCookieHeader(res);
    expect(after).not.toBe(before.cookie);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: after } })).statusCode).toBe(200);
    // The token changed with the privilege: the old one is revoked.
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: before.cookie } })).statusCode).toBe(401);

    const sessions = await database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, user.id));
    expect(sessions.find((s) => s.revokedAt === null)).toMatchObject({ level: 'aal2', mfaPending: false });
    const [row] = await database.db.select().from(schema.authFactors);
    expect(row).toMatchObject({ status: 'verified' });
    expect(row!.verifiedAt).toBeInstanceOf(Date);
  });

  it('refuses a wrong code with 400 Código inválido and leaves the factor unverified', async () => {
    const { cookie } = await signIn(app, await buildUser(database.db));
    const factor = await enrol(cookie);
    const res = await verify(cookie, factor.id, wrongCode(factor.secret));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Código inválido');
    const [row] = await database.db.select().from(schema.authFactors);
    expect(row!.status).toBe('unverified');
  });

  it('refuses a second enrolment once a verified factor exists', async () => {
    const { cookie } = await userWithFactor();
    const res = await call('POST', '/api/auth/factors', cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Ya tienes la verificación en dos pasos activada');
  });

  it('refuses a code of a time step already used (replay), accepts the next step', async () => {
    const user = await buildUser(database.db);
    const { cookie: first } = await signIn(app, user);
    const factor = await enrol(first);
    const code = codeFor(factor.secret);
    const ok = await verify(first, factor.id, code);
    expect(ok.statusCode).toBe(200);
    const cookie = sessionCookieHeader(ok);

    const replay = await verify(cookie, factor.id, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('Código inválido');

    const next = await verify(cookie, factor.id, codeFor(factor.secret, 1));
    expect(next.statusCode).toBe(200);
  });

  it('opens every new sign-in of a user with a verified factor as mfa_required, treated as signed out', async () => {
    const { user, factor } = await userWithFactor();
    const login = await devLogin(user.id);
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ status: 'mfa_required', user: null, factorId: factor.id });
    const pending = sessionCookieHeader(login);

    const [row] = await database.db.select().from(schema.sessions).where(eq(schema.sessions.mfaPending, true));
    expect(row).toMatchObject({ level: 'aal1', userId: user.id });
    expect(Math.abs(row!.expiresAt.getTime() - (Date.now() + MFA_PENDING_TTL_MS))).toBeLessThan(60_000);

    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: pending } })).statusCode).toBe(401);
    expect((await call('GET', '/api/auth/factors', pending)).statusCode).toBe(401);
    expect((await call('POST', '/api/auth/factors', pending)).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: pending } })).json().status).toBe('mfa_required');
  });

  it('never completes a pending sign-in with a wrong code; a correct code completes it', async () => {
    const { user, factor } = await userWithFactor();
    const pending = sessionCookieHeader(await devLogin(user.id));

    const wrong = await verify(pending, factor.id, wrongCode(factor.secret));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Código inválido');
    expect((await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: pending } })).json().status).toBe('mfa_required');
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: pending } })).statusCode).toBe(401);

    // The step of the enrolment code is used up: the next step's code completes the sign-in.
    const ok = await verify(pending, factor.id, codeFor(factor.secret, 1));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'signed_in', user: { id: user.id } });
    const full = sessionCookieHeader(ok);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: full } })).json().id).toBe(user.id);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: pending } })).statusCode).toBe(401);
  });

  it('rate limits wrong codes per user: after 5 in 10 minutes, 429 even for a correct code', async () => {
    const { user, factor } = await userWithFactor();
    const pending = sessionCookieHeader(await devLogin(user.id));
    for (let i = 0; i < 5; i++) {
      const res = await verify(pending, factor.id, wrongCode(factor.secret));
      expect(res.statusCode).toBe(400);
    }
    const limited = await verify(pending, factor.id, codeFor(factor.secret, 1));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Demasiados intentos. Inténtalo más tarde.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: pending } })).statusCode).toBe(401);
    // Counted per user, in Redis under the prefix.
    expect(await app.redis.get(app.redisKey('mfa', 'attempts', user.id))).toBe('5');
  });

  it('stores challenges in Redis for 5 minutes, bound to the session that asked', async () => {
    const { user, factor, cookie } = await userWithFactor();
    const res = await call('POST', `/api/auth/factors/${factor.id}/challenge`, cookie);
    const { challengeId, expiresAt } = res.json<{ challengeId: string; expiresAt: string }>();
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 5 * 60_000))).toBeLessThan(60_000);
    const ttl = await app.redis.ttl(app.redisKey('mfa', 'challenge', challengeId));
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);

    // Another session of the same user cannot answer it.
    const other = sessionCookieHeader(await devLogin(user.id));
    const stolen = await call('POST', `/api/auth/factors/${factor.id}/verify`, other, {
      challengeId,
      code: codeFor(factor.secret, 1),
    });
    expect(stolen.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: other } })).statusCode).toBe(401);

    const unknown = await call('POST', `/api/auth/factors/${factor.id}/verify`, cookie, {
      challengeId: '123e4567-e89b-42d3-a456-426614174000',
      code: codeFor(factor.secret, 1),
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('lets only the owner touch a factor (403 Unauthorized), and 404 for an unknown one', async () => {
    const { factor } = await userWithFactor();
    const { cookie: stranger } = await signIn(app, await buildUser(database.db));
    const res = await call('POST', `/api/auth/factors/${factor.id}/challenge`, stranger);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Unauthorized');
    const del = await call('DELETE', `/api/auth/factors/${factor.id}`, stranger, { code: codeFor(factor.secret, 1) });
    expect(del.statusCode).toBe(403);
    const missing = await call('POST', '/api/auth/factors/123e4567-e89b-42d3-a456-426614174000/challenge', stranger);
    expect(missing.statusCode).toBe(404);
  });

  it('does not let a pending sign-in challenge an unverified factor', async () => {
    const { user, factor } = await userWithFactor();
    const pending = sessionCookieHeader(await devLogin(user.id));
    const [unverified] = await database.db.insert(schema.authFactors).values({ userId: user.id, secret: factor.secret, status: 'unverified' }).returning();
    const res = await call('POST', `/api/auth/factors/${unverified!.id}/challenge`, pending);
    expect(res.statusCode).toBe(403);
  });

  it('unenrols a verified factor only with a fresh valid code; sign-ins are then full again', async () => {
    const { user, factor, cookie } = await userWithFactor();
    const wrong = await call('DELETE', `/api/auth/factors/${factor.id}`, cookie, { code: wrongCode(factor.secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Código inválido');
    // The enrolment code's step is used up.
    const reused = await call('DELETE', `/api/auth/factors/${factor.id}`, cookie, { code: codeFor(factor.secret) });
    expect(reused.statusCode).toBe(400);
    const malformed = await call('DELETE', `/api/auth/factors/${factor.id}`, cookie, { code: '12ab' });
    expect(malformed.statusCode).toBe(400);

    const ok = await call('DELETE', `/api/auth/factors/${factor.id}`, cookie, { code: codeFor(factor.secret, 1) });
    expect(ok.statusCode).toBe(204);
    expect(await database.db.select().from(schema.authFactors)).toHaveLength(0);
    const sessions = await database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, user.id));
    expect(sessions.filter((s) => s.revokedAt === null).every((s) => s.level === 'aal1')).toBe(true);

    const login = await devLogin(user.id);
    expect(login.json()).toMatchObject({ status: 'signed_in', user: { id: user.id } });
  });

  it('removes an abandoned (unverified) enrolment without a code check', async () => {
    const { cookie } = await signIn(app, await buildUser(database.db));
    const factor = await enrol(cookie);
    const res = await call('DELETE', `/api/auth/factors/${factor.id}`, cookie, { code: '000000' });
    expect(res.statusCode).toBe(204);
    expect(await database.db.select().from(schema.authFactors)).toHaveLength(0);
  });

  it('accepts the neighbouring time steps only (±30 s of clock drift)', async () => {
    // A frozen clock: the test and the server must agree on the current step.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const factor = await enrol(cookie);
    const tooOld = await verify(cookie, factor.id, codeFor(factor.secret, -2));
    expect(tooOld.statusCode).toBe(400);
    const tooNew = await verify(cookie, factor.id, codeFor(factor.secret, 2));
    expect(tooNew.statusCode).toBe(400);
    const previous = await verify(cookie, factor.id, codeFor(factor.secret, -1));
    expect(previous.statusCode).toBe(200);
  });

  it('keeps accepting codes as time goes by (each step once)', async () => {
    const { user, factor } = await userWithFactor();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    for (let i = 0; i < 3; i++) {
      const pending = sessionCookieHeader(await devLogin(user.id));
      const res = await verify(pending, factor.id, codeFor(factor.secret));
      expect(res.statusCode).toBe(200);
      vi.setSystemTime(Date.now() + 30_000);
    }
  });
});
