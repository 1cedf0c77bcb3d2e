// Rate limits against the real server: what a script beyond a limit gets (429, Retry-After, the
// Spanish message) and that its request changed nothing; the crowd behind one address; buckets
// shared through Redis by two instances; Redis down; routes that forget to declare a limit.
import type { FastifyInstance, FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TOO_MANY_REQUESTS_MESSAGE } from '@tribuna/contracts/httpMessages';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { insertTotpFactor, totpCode, wrongTotpCodes } from '../../../test/support/server/factors.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { authorizeAtProvider, finishGoogleFlow, googleSignIn, startGoogleFlow, useOidcTestApp } from '../../../test/support/server/oidc.ts';
import { asUser, devLogin, signIn, XHR } from '../../../test/support/server/sessions.ts';
import { TcpProxy } from '../../../test/support/server/tcpProxy.ts';
import { openWs } from '../../../test/support/server/wsClient.ts';
import { RATE_LIMITS, type RateLimitTable } from './rateLimits.ts';

const FINGERPRINT = 'device_fp_0123456789';
const VIEW = { path: '/terminos', referrer: null, sessionId: 'sess_abc12345', deviceType: 'mobile' };

/** 429 with the Spanish message and a Retry-After of whole seconds, from 1 up to `maxRetryAfter`. */
function expectTooManyRequests(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string }, maxRetryAfter = 3600) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: TOO_MANY_REQUESTS_MESSAGE });
  const retryAfter = String(res.headers['retry-after']);
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxRetryAfter);
}

/** fetch's Response in the shape expectTooManyRequests reads. */
async function fetched(res: Response) {
  const body = await res.text();
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body, json: () => JSON.parse(body) as unknown };
}

const statuses = (responses: Array<{ statusCode: number }>) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
};

describe('rate limits with their real numbers', () => {
  let app: App;
  let baseUrl: string;
  let database: Database;
  useOidcTestApp({ DEV_LOGIN: '1' }, (ready) => ({ app, baseUrl, database } = ready));

  const points = (optionId: string) => ({ allocations: [{ optionId, points: 1 }], deviceFingerprint: FINGERPRINT });

  it('lets a fan vote 30 times at once, refuses the script-like rest and stores none of it; another fan on the same address still votes', async () => {
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 1000 });
    const fan = await buildUser(database.db);
    const headers = asUser(await signIn(app, fan));
    const vote = (h: Record<string, string>) => app.inject({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers: h, payload: points(options[0]!.id) });

    const burst = await Promise.all(Array.from({ length: 40 }, () => vote(headers)));
    expect(statuses(burst)).toEqual({ 201: RATE_LIMITS['votes.cast'].perUser.max, 429: 10 });
    // 3 votes a second refill the bucket: the next one is due within a second.
    for (const refused of burst.filter((r) => r.statusCode === 429)) expectTooManyRequests(refused, 1);
    const stored = await database.db.select().from(schema.votes).where(eq(schema.votes.userId, fan.id));
    expect(stored).toHaveLength(30);

    // The crowd behind one carrier address: each fan has their own budget.
    const neighbour = await buildUser(database.db);
    const theirs = await vote(asUser(await signIn(app, neighbour)));
    expect(theirs.statusCode, theirs.body).toBe(201);
  });

  it('lets an address start 30 Google sign-ins a minute; beyond, JSON for scripts and a page for browsers', async () => {
    const started = await Promise.all(Array.from({ length: 31 }, () => fetch(`${baseUrl}/auth/google`, { redirect: 'manual' }).then(fetched)));
    expect(statuses(started)).toEqual({ 302: 30, 429: 1 });
    const refused = started.find((r) => r.statusCode === 429)!;
    // One start every 2 s comes back.
    expectTooManyRequests(refused, 2);
    // The refused start set no flow cookie: the flow never began.
    expect(refused.headers['set-cookie']).toBeUndefined();

    const browser = await fetch(`${baseUrl}/auth/google`, { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browser.status).toBe(429);
    expect(['1', '2']).toContain(browser.headers.get('retry-after'));
    expect(browser.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await browser.text();
    expect(page).toContain(TOO_MANY_REQUESTS_MESSAGE);
    expect(page).toContain('href="/login"');
  });

  it('lets an address use the development sign-in 10 times a minute and creates nothing beyond', async () => {
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 11; i++) answers.push(await devLogin(app, { displayName: `Fan ${i}` }));
    expect(answers.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    // One every 6 s comes back.
    expectTooManyRequests(answers[10]!, 6);
    expect(await database.db.select().from(schema.profiles)).toHaveLength(10);
    expect(await database.db.select().from(schema.sessions)).toHaveLength(10);
  });
});

/** Small numbers, so each case reaches its limit in a couple of requests. */
const SMALL: Partial<RateLimitTable> = {
  'auth.google-callback': { store: 'redis', perAddress: { max: 1, windowSeconds: 3600 } },
  'factors.verify': { store: 'redis', perUser: { max: 2, windowSeconds: 3600 }, perAddress: { max: 100, windowSeconds: 3600 } },
  'shares.create': { store: 'redis', perUser: { max: 1, windowSeconds: 3600 }, perAddress: { max: 100, windowSeconds: 3600 } },
  'page-views.record': {
    store: 'local',
    perUser: { max: 1, windowSeconds: 3600 },
    perSignedInAddress: { max: 100, windowSeconds: 3600 },
    perAddress: { max: 2, windowSeconds: 3600 },
  },
  'polls.read': {
    store: 'local',
    perUser: { max: 100, windowSeconds: 3600 },
    perSignedInAddress: { max: 100, windowSeconds: 3600 },
    perAddress: { max: 2, windowSeconds: 3600 },
  },
  'polls.results': { store: 'local', perAddress: { max: 1, windowSeconds: 3600 } },
  'live.connect': { store: 'local', perAddress: { max: 1, windowSeconds: 3600 } },
};

describe('each limited route beyond its limit', () => {
  let app: App;
  let baseUrl: string;
  let port: number;
  let database: Database;
  useOidcTestApp({}, (ready) => ({ app, baseUrl, port, database } = ready), { build: () => ({ rateLimits: SMALL }) });

  it('refuses a Google callback beyond the limit without creating the account or a session', async () => {
    const first = await googleSignIn(baseUrl);
    expect(first.location).toBe('/auth/callback');

    const second = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(second.authorizeUrl);
    const target = new URL(`${callback.pathname}${callback.search}`, baseUrl);
    const refused = await fetch(target, { redirect: 'manual', headers: { cookie: [...second.jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expectTooManyRequests(await fetched(refused));
    expect(await database.db.select().from(schema.profiles)).toHaveLength(1);
    expect(await database.db.select().from(schema.sessions)).toHaveLength(1);
    // The same callback is still unused: nothing of it was spent (here it is refused again).
    expect((await finishGoogleFlow(baseUrl, callback, second.jar)).status).toBe(429);
  });

  it("refuses a second-factor code beyond the user's limit, even a right one, during a pending sign-in", async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const user = await buildUser(database.db);
    const factor = await insertTotpFactor(database.db, app.config, { userId: user.id, secret });
    const pending = await signIn(app, user, { mfaPending: true });
    const verify = async (code: string) => {
      const challenge = await app.inject({ method: 'POST', url: `/api/auth/factors/${factor.id}/challenge`, headers: asUser(pending) });
      expect(challenge.statusCode, challenge.body).toBe(200);
      return app.inject({
        method: 'POST',
        url: `/api/auth/factors/${factor.id}/verify`,
        headers: asUser(pending),
        payload: { challengeId: challenge.json<{ challengeId: string }>().challengeId, code },
      });
    };

    for (const code of wrongTotpCodes(secret, 2)) expect((await verify(code)).statusCode).toBe(400);
    expectTooManyRequests(await verify(totpCode(secret)));

    // The right code beyond the limit was never checked: the sign-in still owes its second factor.
    const state = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: pending.cookie } });
    expect(state.json()).toEqual({ status: 'mfa_required', user: null, factorId: factor.id });
    const [session] = await database.db.select().from(schema.sessions).where(eq(schema.sessions.id, pending.sessionId));
    expect(session).toMatchObject({ mfaPending: true, level: 'aal1' });
  });

  it("refuses a share beyond the user's limit without recording it; another fan on the address still shares", async () => {
    const { poll: first } = await buildPoll(database.db);
    const { poll: second } = await buildPoll(database.db);
    const fan = await buildUser(database.db);
    const headers = asUser(await signIn(app, fan));
    const share = (pollId: string, h: Record<string, string>) =>
      app.inject({ method: 'POST', url: `/api/polls/${pollId}/shares`, headers: h, payload: { platform: 'whatsapp' } });

    expect((await share(first.id, headers)).statusCode).toBe(201);
    expectTooManyRequests(await share(second.id, headers));
    const rows = await database.db.select().from(schema.shareHistory).where(eq(schema.shareHistory.userId, fan.id));
    expect(rows.map((r) => r.pollId)).toEqual([first.id]);

    const neighbour = await buildUser(database.db);
    expect((await share(second.id, asUser(await signIn(app, neighbour)))).statusCode).toBe(201);
  });

  it('refuses page views beyond the address limit without storing them; signed-in fans count on their own', async () => {
    const record = (headers: Record<string, string> = XHR) => app.inject({ method: 'POST', url: '/api/page-views', headers, payload: VIEW });
    expect((await record()).statusCode).toBe(204);
    expect((await record()).statusCode).toBe(204);
    expectTooManyRequests(await record());
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(2);

    const fan = asUser(await signIn(app, await buildUser(database.db)));
    expect((await record(fan)).statusCode).toBe(204);
    expectTooManyRequests(await record(fan));
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(3);
  });

  it('refuses poll reads beyond the address limit (one budget for every poll read route)', async () => {
    const { poll } = await buildPoll(database.db);
    const read = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
    expect((await read(`/api/polls/${poll.id}`)).statusCode).toBe(200);
    expect((await read('/api/polls')).statusCode).toBe(200);
    expectTooManyRequests(await read(`/api/polls/${poll.id}`));
    expectTooManyRequests(await read('/api/polls/home'));

    const fan = await signIn(app, await buildUser(database.db));
    expect((await read(`/api/polls/${poll.id}`, { cookie: fan.cookie })).statusCode).toBe(200);
  });

  it('refuses results beyond the limit', async () => {
    const { poll } = await buildPoll(database.db);
    const results = () => app.inject({ method: 'GET', url: `/api/polls/${poll.id}/results` });
    expect((await results()).statusCode).toBe(200);
    expectTooManyRequests(await results());
  });

  it('refuses websocket upgrades beyond the limit', async () => {
    const first = await openWs(`ws://127.0.0.1:${port}/ws`);
    await expect(openWs(`ws://127.0.0.1:${port}/ws`)).rejects.toThrow('unexpected response 429');
    await first.close();
  });
});

describe('redis store shared by every instance', () => {
  const limits: Partial<RateLimitTable> = { 'auth.dev-login': { store: 'redis', perAddress: { max: 2, windowSeconds: 3600 } } };
  let first: App;
  let second: App;
  let database: Database;
  useTestApp({ DEV_LOGIN: '1' }, (ready) => ({ app: first, database } = ready), { build: () => ({ rateLimits: limits }) });
  beforeAll(async () => {
    // Another server instance: same database, same Redis prefix.
    second = await buildApp(testConfig({ DEV_LOGIN: '1' }), { rateLimits: limits });
  });
  afterAll(async () => {
    await second.close();
  });

  it('counts sign-ins on either instance against one budget', async () => {
    expect((await devLogin(first, { displayName: 'Una' })).statusCode).toBe(200);
    expect((await devLogin(second, { displayName: 'Dos' })).statusCode).toBe(200);
    expectTooManyRequests(await devLogin(first, { displayName: 'Tres' }));
    expectTooManyRequests(await devLogin(second, { displayName: 'Cuatro' }));
    expect(await database.db.select().from(schema.profiles)).toHaveLength(2);
  });
});

describe('redis store while Redis is unreachable', () => {
  const limits: Partial<RateLimitTable> = { 'auth.dev-login': { store: 'redis', perAddress: { max: 2, windowSeconds: 3600 } } };
  const base = testConfig({ DEV_LOGIN: '1' });
  const redisProxy = TcpProxy.for(base.redisUrl);
  let cutOff: App;
  let connected: App;
  let database: Database;
  beforeAll(async () => {
    await redisProxy.start();
    cutOff = await buildApp(testConfig({ DEV_LOGIN: '1', REDIS_URL: redisProxy.proxiedUrl(base.redisUrl) }), { rateLimits: limits });
    connected = await buildApp(base, { rateLimits: limits });
    database = testDatabase();
    await redisProxy.stop();
  });
  beforeEach(async () => {
    await truncateAll(database);
    await connected.resetRateLimits();
  });
  afterAll(async () => {
    // Back up first, so the queues close cleanly.
    await redisProxy.start();
    await cutOff.close();
    await connected.close();
    await database.close();
    await redisProxy.stop();
  });

  it('still signs in, counting on the instance alone', async () => {
    // An instance that reaches Redis uses up the shared budget of this address.
    expect((await devLogin(connected, { displayName: 'Una' })).statusCode).toBe(200);
    expect((await devLogin(connected, { displayName: 'Dos' })).statusCode).toBe(200);
    expectTooManyRequests(await devLogin(connected, { displayName: 'Tres' }));

    // The instance cut off from Redis cannot see it, and counts with its own buckets.
    expect((await devLogin(cutOff, { displayName: 'Cuatro' })).statusCode).toBe(200);
    expect((await devLogin(cutOff, { displayName: 'Cinco' })).statusCode).toBe(200);
    expectTooManyRequests(await devLogin(cutOff, { displayName: 'Seis' }));
    expect(await database.db.select().from(schema.profiles)).toHaveLength(4);
  });
});

describe('routes that do not declare their limit', () => {
  /** buildApp with `routes`; resolves with its error, the half-built app closed. */
  async function buildError(routes: FastifyPluginAsync): Promise<Error> {
    let instance: FastifyInstance | undefined;
    const extraRoutes: FastifyPluginAsync = async (scope) => {
      instance = scope;
      await routes(scope, {});
    };
    try {
      const app = await buildApp(testConfig(), { extraRoutes });
      await app.close();
    } catch (err) {
      await instance?.close().catch(() => {});
      return err as Error;
    }
    throw new Error('buildApp accepted the routes');
  }

  it('stop the server from starting', async () => {
    const error = await buildError(async (app) => {
      app.get('/api/test/undeclared', async () => ({ ok: true }));
    });
    expect(error.message).toMatch(/^GET \/api\/test\/undeclared declares no rate limit/);
  });

  it('stop the server from starting outside /api, /auth and /ws too (every dynamic route)', async () => {
    const error = await buildError(async (app) => {
      app.get('/perfil/:userId/tarjeta', async () => 'page');
    });
    expect(error.message).toMatch(/^GET \/perfil\/:userId\/tarjeta declares no rate limit/);
  });

  it('must also document their 429', async () => {
    const error = await buildError(async (app) => {
      app.get('/api/test/undocumented', { config: { rateLimit: 'polls.read' } }, async () => ({ ok: true }));
    });
    expect(error.message).toMatch(/^GET \/api\/test\/undocumented is rate limited but does not document its 429/);
  });
});
