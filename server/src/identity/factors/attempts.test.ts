// The per-user attempt counter of the second factor: spent before a code is checked, so parallel
// requests cannot buy more guesses, and no guess at all while Redis cannot count.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../../../../test/support/db.ts';
import { testConfig } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import type { RateLimitRule } from '../../http/rateLimits.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { insertTotpFactor, totpCode, wrongTotpCodes } from '../../../../test/support/server/factors.ts';
import { signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { useProxiedTestApp, type TcpProxy } from '../../../../test/support/server/tcpProxy.ts';
import { MAX_FAILED_CODES, TOO_MANY_ATTEMPTS, VERIFICATION_UNAVAILABLE } from './attempts.ts';
import { newTotpSecret } from './totp.ts';

/** A user with a verified factor, a sign-in owing its second factor and a full (aal1) session. */
async function userWithFactor(app: App, database: Database) {
  const user = await buildUser(database.db);
  const secret = newTotpSecret();
  const factor = await insertTotpFactor(database.db, app.config, { userId: user.id, secret });
  const pending = await signIn(app, user, { mfaPending: true });
  const full = await signIn(app, user);
  return { user, secret, factor, pending: pending.cookie, full: full.cookie };
}

function requests(app: App) {
  const challenge = async (cookie: string, factorId: string) => {
    const res = await app.inject({ method: 'POST', url: `/api/auth/factors/${factorId}/challenge`, headers: { cookie, ...XHR } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ challengeId: string }>().challengeId;
  };
  const verify = (cookie: string, factorId: string, challengeId: string, code: string) =>
    app.inject({ method: 'POST', url: `/api/auth/factors/${factorId}/verify`, headers: { cookie, ...XHR }, payload: { challengeId, code } });
  const unenrol = (cookie: string, factorId: string, code: string) =>
    app.inject({ method: 'DELETE', url: `/api/auth/factors/${factorId}`, headers: { cookie, ...XHR }, payload: { code } });
  return { challenge, verify, unenrol };
}

/** The request rate limits of these routes out of the way: this file floods them to reach the attempt counter. */
const unlimited: RateLimitRule = { store: 'local', perUser: { max: 1000, windowSeconds: 60 }, perAddress: { max: 1000, windowSeconds: 60 } };
const rateLimits = { 'factors.challenge': unlimited, 'factors.verify': unlimited, 'factors.unenrol': unlimited };

const statuses = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>((count, a) => ({ ...count, [a.statusCode]: (count[a.statusCode] ?? 0) + 1 }), {});

describe('second factor attempts', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), { build: () => ({ rateLimits }) });
  beforeEach(async () => {
    const keys = await app.redis.keys(app.redisKey('mfa', '*'));
    if (keys.length > 0) await app.redis.del(...keys);
  });

  async function sessionsOf(userId: string) {
    return database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, userId));
  }

  it(`checks at most ${MAX_FAILED_CODES} of 20 codes sent at once; the others, and then the right code, get 429`, async () => {
    const { user, secret, factor, pending } = await userWithFactor(app, database);
    const { challenge, verify } = requests(app);
    const challengeId = await challenge(pending, factor.id);
    const before = await sessionsOf(user.id);

    const answers = await Promise.all(wrongTotpCodes(secret, 20).map((code) => verify(pending, factor.id, challengeId, code)));
    expect(statuses(answers)).toEqual({ 400: MAX_FAILED_CODES, 429: 20 - MAX_FAILED_CODES });
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expect(refused.json().message).toBe(TOO_MANY_ATTEMPTS);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    }
    expect(await app.redis.get(app.redisKey('mfa', 'attempts', user.id))).toBe(String(MAX_FAILED_CODES));

    // The right code among more parallel guesses is refused like them, unchecked.
    const later = await Promise.all([
      ...wrongTotpCodes(secret, 4).map((code) => verify(pending, factor.id, challengeId, code)),
      verify(pending, factor.id, challengeId, totpCode(secret)),
    ]);
    expect(statuses(later)).toEqual({ 429: 5 });

    // Nothing changed: the sign-in still owes its factor, no step was consumed.
    expect(await sessionsOf(user.id)).toEqual(before);
    const [row] = await database.db.select().from(schema.authFactors).where(eq(schema.authFactors.id, factor.id));
    expect(row!.lastUsedStep).toBeNull();
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: pending } })).statusCode).toBe(401);
  });

  it('counts unenrolment codes the same way: 20 wrong ones at once check at most 5, the factor stays', async () => {
    const { user, secret, factor, full } = await userWithFactor(app, database);
    const { unenrol } = requests(app);

    const answers = await Promise.all(wrongTotpCodes(secret, 20).map((code) => unenrol(full, factor.id, code)));
    expect(statuses(answers)).toEqual({ 400: MAX_FAILED_CODES, 429: 20 - MAX_FAILED_CODES });
    const right = await unenrol(full, factor.id, totpCode(secret));
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(TOO_MANY_ATTEMPTS);

    expect(await database.db.select().from(schema.authFactors).where(eq(schema.authFactors.userId, user.id))).toHaveLength(1);
  });

  it('shares one counter between verification and unenrolment', async () => {
    const { secret, factor, pending, full } = await userWithFactor(app, database);
    const { challenge, verify, unenrol } = requests(app);
    const challengeId = await challenge(pending, factor.id);
    const [a, b, c, d, e] = wrongTotpCodes(secret, 5);
    for (const code of [a!, b!, c!]) expect((await verify(pending, factor.id, challengeId, code)).statusCode).toBe(400);
    for (const code of [d!, e!]) expect((await unenrol(full, factor.id, code)).statusCode).toBe(400);
    expect((await unenrol(full, factor.id, totpCode(secret))).statusCode).toBe(429);
    expect((await verify(pending, factor.id, challengeId, totpCode(secret))).statusCode).toBe(429);
  });

  it('gives a correct code its attempt back; the wrong ones of the window still count', async () => {
    const { user, secret, factor, pending } = await userWithFactor(app, database);
    const { challenge, verify } = requests(app);
    const counter = () => app.redis.get(app.redisKey('mfa', 'attempts', user.id));
    let challengeId = await challenge(pending, factor.id);
    const wrong = wrongTotpCodes(secret, MAX_FAILED_CODES);
    for (const code of wrong.slice(1)) expect((await verify(pending, factor.id, challengeId, code)).statusCode).toBe(400);
    expect(await counter()).toBe(String(MAX_FAILED_CODES - 1));

    const ok = await verify(pending, factor.id, challengeId, totpCode(secret));
    expect(ok.statusCode).toBe(200);
    expect(await counter()).toBe(String(MAX_FAILED_CODES - 1));

    // One wrong code left in the window, then 429 even for the next step's right code.
    const { cookie: again } = await signIn(app, user, { mfaPending: true });
    challengeId = await challenge(again, factor.id);
    expect((await verify(again, factor.id, challengeId, wrong[0]!)).statusCode).toBe(400);
    expect((await verify(again, factor.id, challengeId, totpCode(secret, 1))).statusCode).toBe(429);
  });
});

describe('second factor while Redis is down', () => {
  const database = testDatabase();
  let app: App;
  let redisProxy: TcpProxy;

  beforeAll(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await database.close();
  });
  useProxiedTestApp({ REDIS_PREFIX: `${testConfig().redisPrefix}_mfa_down` }, (ready) => ({ app, redisProxy } = ready));

  it('fails closed with 503: no code is checked, nothing changes, and it works again once Redis is back', async () => {
    const { user, secret, factor, pending, full } = await userWithFactor(app, database);
    const { challenge, verify, unenrol } = requests(app);
    const challengeId = await challenge(pending, factor.id);
    const before = await database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, user.id));

    await redisProxy.stop();
    try {
      for (const res of [
        await verify(pending, factor.id, challengeId, totpCode(secret)),
        await unenrol(full, factor.id, totpCode(secret)),
        await app.inject({ method: 'POST', url: `/api/auth/factors/${factor.id}/challenge`, headers: { cookie: pending, ...XHR } }),
      ]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json().message).toBe(VERIFICATION_UNAVAILABLE);
      }
      expect(await database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, user.id))).toEqual(before);
      const [row] = await database.db.select().from(schema.authFactors).where(eq(schema.authFactors.id, factor.id));
      expect(row).toMatchObject({ status: 'verified', lastUsedStep: null });
    } finally {
      await redisProxy.start();
    }

    await expect.poll(() => app.redis.status, { timeout: 10_000 }).toBe('ready');
    const ok = await verify(pending, factor.id, await challenge(pending, factor.id), totpCode(secret));
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
